package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.junit.jupiter.api.Test;

/** Kernels that misbehave end in a fault that says what, where and which thread; nothing hangs. */
class PtxInterpreterFaultsTest {
    static final String HEADER = ".version 8.0\n.target sm_75\n.address_size 64\n";

    static LaunchResult run(String body, String spec, ExecutionLimits limits) throws Exception {
        PtxInterpreter interp = PtxInterpreter.load("t.ptx", HEADER + body);
        Launch l = Launch.prepare(Target.of("sm_80"), LaunchSpecReader.parse("t.json", spec, Path.of(".")));
        return interp.execute(l, limits);
    }

    static Fault fault(String body, String spec) throws Exception {
        LaunchResult r = run(body, spec, ExecutionLimits.DEFAULT.withMaxWarpInstructions(100_000));
        assertTrue(r.fault().isPresent(), "expected a fault");
        return r.fault().get();
    }

    static final String ONE_BUFFER = "{\"entry\":\"k\",\"grid\":[1],\"block\":[64],\"params\":[{\"type\":\"ptr\",\"bytes\":256}]}";

    @Test
    void outOfBoundsStoreNamesThreadAddressAndInstruction() throws Exception {
        Fault f = fault("""
                .visible .entry k(.param .u64 p) {
                  .reg .b32 %r<3>; .reg .b64 %rd<4>;
                  ld.param.u64 %rd1, [p];
                  mov.u32 %r1, %tid.x;
                  mul.wide.u32 %rd2, %r1, 4;
                  add.s64 %rd3, %rd1, %rd2;
                  st.global.u32 [%rd3], %r1;
                  ret;
                }
                """, ONE_BUFFER.replace("[64]", "[128]"));
        Fault.MemoryFault m = assertInstanceOf(Fault.MemoryFault.class, f);
        assertEquals(64, m.thread().thread().x());
        assertTrue(m.describe().contains("line 10"), m.describe());
        assertTrue(m.describe().contains("st.global.u32"), m.describe());
        assertTrue(m.describe().contains("0x" + Long.toHexString(m.access().address())), m.describe());
    }

    @Test
    void trapIsReported() throws Exception {
        Fault f = fault("""
                .visible .entry k(.param .u64 p) {
                  .reg .pred %p<2>; .reg .b32 %r<2>;
                  mov.u32 %r1, %tid.x;
                  setp.eq.u32 %p1, %r1, 5;
                  @%p1 trap;
                  ret;
                }
                """, ONE_BUFFER);
        Fault.Trap t = assertInstanceOf(Fault.Trap.class, f);
        assertEquals(5, t.thread().thread().x());
    }

    @Test
    void barrierThatSomeThreadsNeverReachIsADeadlock() throws Exception {
        Fault f = fault("""
                .visible .entry k(.param .u64 p) {
                  .reg .pred %p<2>; .reg .b32 %r<2>;
                  mov.u32 %r1, %tid.x;
                  setp.lt.u32 %p1, %r1, 32;
                  @%p1 bra $SKIP;
                  bar.sync 0;
                  ret;
                $SKIP:
                  bar.sync 1;
                  ret;
                }
                """, ONE_BUFFER);
        Fault.BarrierDeadlock d = assertInstanceOf(Fault.BarrierDeadlock.class, f);
        assertTrue(d.describe().contains("barrier 0") && d.describe().contains("barrier 1"), d.describe());
    }

    @Test
    void endlessLoopHitsTheStepLimit() throws Exception {
        Fault f = fault("""
                .visible .entry k(.param .u64 p) {
                $L: bra $L;
                }
                """, ONE_BUFFER);
        assertInstanceOf(Fault.StepLimitExceeded.class, f);
    }

    @Test
    void unimplementedInstructionStopsWithItsName() throws Exception {
        Fault f = fault("""
                .visible .entry k(.param .u64 p) {
                  .reg .b64 %rd<2>;
                  .reg .b32 %r<2>;
                  ld.param.u64 %rd1, [p];
                  mbarrier.arrive.b64 %rd1, [%rd1];
                  ret;
                }
                """, ONE_BUFFER);
        Fault.Unimplemented u = assertInstanceOf(Fault.Unimplemented.class, f);
        assertTrue(u.name().startsWith("mbarrier"), u.name());
    }

    @Test
    void unknownEntryAndParameterMismatchAreLaunchErrors() {
        String body = ".visible .entry k(.param .u32 n) { ret; }\n";
        LaunchException e = assertThrows(LaunchException.class, () -> run(body,
                "{\"entry\":\"other\",\"grid\":[1],\"block\":[1],\"params\":[]}", ExecutionLimits.DEFAULT));
        assertTrue(e.getMessage().contains("no kernel 'other'") && e.getMessage().contains("kernels: k"), e.getMessage());
        LaunchException p = assertThrows(LaunchException.class, () -> run(body, ONE_BUFFER, ExecutionLimits.DEFAULT));
        assertTrue(p.getMessage().contains("declared with 4 bytes"), p.getMessage());
    }

    @Test
    void syntaxErrorsAreProgramErrors() {
        ProgramException e = assertThrows(ProgramException.class, () -> PtxInterpreter.load("bad.ptx", HEADER + ".entry k( {"));
        assertTrue(e.getMessage().contains("bad.ptx"), e.getMessage());
    }
}
