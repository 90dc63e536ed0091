package org.jptxas.simulator.sass;

import static org.jptxas.simulator.LdmatrixReference.fragmentsOfRows;
import static org.jptxas.simulator.LdmatrixReference.image;
import static org.jptxas.simulator.LdmatrixReference.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.LdmatrixReference;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.memory.AddressSpace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;

/**
 * LDSM (the SASS of PTX {@code ldmatrix}) on one warp: the kernel copies a random image into shared memory, each
 * lane loads its row address from a buffer, and one {@code LDSM.16.M88[.2|.4]} or {@code .MT88} runs. Every lane's
 * destination registers are checked against {@link LdmatrixReference}'s fragments of 8x8 matrices built from the
 * image (transposed loads as the plain fragment of the transposed matrix); the registers after the tuple keep a
 * sentinel.
 */
class LdsmTest {
    /** Shared memory of the kernel: 64 rows of 16 bytes. */
    static final int SHARED = 1024;
    static final int SENTINEL = 0x5a5a5a5a;
    /** Where the tuple goes: R20..R23. */
    static final int RD = 20;

    record Run(LaunchResult result, SassMachine.Thread[] threads) {}

    /** Shared addresses start at 0x400 from sm_90 (the reserved KiB; see SassMachine). */
    static int sharedBase(String sm) {
        return Target.of(sm).sm() >= 90 ? 0x400 : 0;
    }

    /**
     * One warp: shared memory filled from {@code image}, R16 = {@code rowAddress[lane]}, UR4 = {@code ur4}, R20..R23
     * = the sentinel, then {@code ldsm} and EXIT. {@code guard} (if not empty) runs first (to set predicates).
     */
    static Run run(String sm, byte[] image, int[] rowAddress, int ur4, String guard, String ldsm) throws Exception {
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        int base = sharedBase(sm);
        List<String> text = new ArrayList<>(List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer(sm, 0, 0x20),
                "LDG.E.128 R4, " + SassTextRun.global(sm) + "[R2.64]",
                "LDG.E.128 R8, " + SassTextRun.global(sm) + "[R2.64+0x10]",
                "IMAD.SHL.U32 R1, R0, 0x20, RZ",
                base == 0 ? "STS.128 [R1], R4" : String.format("STS.128 [R1+0x%x], R4", base),
                String.format("STS.128 [R1+0x%x], R8", base + 0x10),
                SassTextRun.pointer(sm, 8, 0x4),
                "LDG.E R16, " + SassTextRun.global(sm) + "[R2.64]",
                String.format("UMOV UR4, 0x%x", ur4),
                String.format("MOV R20, 0x%x", SENTINEL),
                String.format("MOV R21, 0x%x", SENTINEL),
                String.format("MOV R22, 0x%x", SENTINEL),
                String.format("MOV R23, 0x%x", SENTINEL),
                "BAR.SYNC.DEFER_BLOCKING 0x0"));
        if (!guard.isEmpty()) {
            text.add(guard);
        }
        text.add(ldsm);
        text.add("EXIT");
        // sm_75 writes global accesses [R2] (no .64): its programs here keep sm_80's spelling
        List<SassOp> ops = sm.equals("sm_75") ? HandWrittenSass.ops(text, Map.of()) : AssembledText.ops(sm, text, Map.of());
        Launch launch = Launch.prepare(Target.of(sm), LaunchSpecReader.parse("ldsm.json", "{\"entry\":\"k\",\"grid\":[1,1,1],"
                + "\"block\":[32,1,1],\"dynamic_shared_bytes\":0,\"params\":[{\"type\":\"ptr\",\"bytes\":" + SHARED
                + "},{\"type\":\"ptr\",\"bytes\":128}]}", Path.of(".")));
        System.arraycopy(image, 0, launch.arguments().get(0).buffer().orElseThrow().bytes(), 0, SHARED);
        byte[] addresses = launch.arguments().get(1).buffer().orElseThrow().bytes();
        ByteBuffer a = ByteBuffer.wrap(addresses).order(ByteOrder.LITTLE_ENDIAN);
        for (int l = 0; l < 32; l++) {
            a.putInt(4 * l, rowAddress[l]);
        }
        SassMachine m = new SassMachine("SASS emulator (" + sm + ")", DecodedOp.decodeAll(ops), launch,
                ExecutionLimits.DEFAULT.withMaxWarpInstructions(10_000), SHARED, Map.of(), x -> Optional.empty(),
                true, false);
        return new Run(m.run(), m.threads());
    }

    static void check(Run run, int[][] expected, int n, String what) {
        assertTrue(run.result().completed(), () -> run.result().fault().orElseThrow().describe());
        for (int t = 0; t < 32; t++) {
            for (int i = 0; i < 4; i++) {
                int want = i < n ? expected[t][i] : SENTINEL;
                int got = run.threads()[t].r[RD + i];
                int lane = t, reg = i;
                assertEquals(want, got, () -> String.format("%s: lane %d R%d: expected 0x%08x, got 0x%08x", what, lane,
                        RD + reg, want, got));
            }
        }
    }

    /**
     * Every shape with a register address, register + offset, and (sm_86+) register + UR + offset. The address
     * register holds the row's shared address minus the displacement the instruction adds.
     */
    @ParameterizedTest
    @CsvSource({
            "sm_80, M88, 1, '[R16]'", "sm_80, M88, 2, '[R16+0x40]'", "sm_80, M88, 4, '[R16+0x40]'",
            "sm_80, MT88, 1, '[R16+0x40]'", "sm_80, MT88, 2, '[R16]'", "sm_80, MT88, 4, '[R16+0x40]'",
            "sm_75, M88, 2, '[R16]'", "sm_75, MT88, 4, '[R16]'",
            "sm_90, M88, 4, '[R16+0x40]'", "sm_90, MT88, 4, '[R16+UR4+0x10]'", "sm_90, MT88, 2, '[R16+UR4]'",
            "sm_86, M88, 1, '[R16+UR4+0x10]'"})
    void everyLaneGetsItsFragment(String sm, String shape, int n, String address) throws Exception {
        int ur4 = 0x30;
        int disp = (address.contains("+0x40") ? 0x40 : address.contains("+0x10") ? 0x10 : 0)
                + (address.contains("UR4") ? ur4 : 0);
        long seed = 31L * n + shape.length() + address.length();
        byte[] image = image(seed, SHARED);
        int[] rows = rows(seed + 1);
        int[] regs = new int[32];
        for (int l = 0; l < 32; l++) {
            regs[l] = sharedBase(sm) + 16 * rows[l] - disp;
        }
        String ldsm = "LDSM.16." + shape + (n == 1 ? "" : "." + n) + " R" + RD + ", " + address;
        check(run(sm, image, regs, ur4, "", ldsm), fragmentsOfRows(image, rows, n, shape.equals("MT88")), n,
                sm + " " + ldsm);
    }

    /** {@code [RZ+imm]}: every lane gives the same row, so each matrix repeats one row (rows 0..7 all row 5). */
    @Test
    void sameRowForEveryLaneFromAnImmediateAddress() throws Exception {
        byte[] image = image(7, SHARED);
        int[] rows = new int[32];
        java.util.Arrays.fill(rows, 5);
        int[][] want = fragmentsOfRows(image, rows, 4, true);
        check(run("sm_80", image, new int[32], 0, "", "LDSM.16.MT88.4 R20, [RZ+0x50]"), want, 4, "RZ+0x50 MT88.4");
        // with every row equal, lane t's transposed pair is element t/4 twice
        ByteBuffer b = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
        int e = b.getShort(0x50 + 2 * 3) & 0xffff;
        assertEquals(e | e << 16, want[13][2]);
    }

    /** Only lanes 0..8N-1 give rows: the other lanes' addresses (here misaligned and out of bounds) are not read. */
    @Test
    void lanesThatGiveNoRowAreNotRead() throws Exception {
        byte[] image = image(11, SHARED);
        int[] rows = rows(12);
        int[] regs = new int[32];
        for (int l = 0; l < 32; l++) {
            regs[l] = l < 16 ? 16 * rows[l] : 0x7fff_fff3;
        }
        Run r = run("sm_80", image, regs, 0, "", "LDSM.16.M88.2 R20, [R16]");
        check(r, fragmentsOfRows(image, rows, 2, false), 2, "M88.2");
    }

    /** The destination may be the address register: every row is read before a register is written. */
    @Test
    void destinationMayOverlapTheAddressRegister() throws Exception {
        byte[] image = image(21, SHARED);
        int[] rows = rows(22);
        int[] regs = new int[32];
        for (int l = 0; l < 32; l++) {
            regs[l] = 16 * rows[l];
        }
        Run r = run("sm_80", image, regs, 0, "", "LDSM.16.M88.4 R16, [R16]");
        assertTrue(r.result().completed(), () -> r.result().fault().orElseThrow().describe());
        int[][] want = fragmentsOfRows(image, rows, 4, false);
        for (int t = 0; t < 32; t++) {
            for (int i = 0; i < 4; i++) {
                assertEquals(want[t][i], r.threads()[t].r[16 + i], "lane " + t + " R" + (16 + i));
            }
        }
    }

    /** A misaligned or out-of-bounds row address is a memory fault of the lane that gave it, as for LDS. */
    @ParameterizedTest
    @ValueSource(strings = {"misaligned", "out of bounds", "below the sm_90 window"})
    void badRowAddressIsAMemoryFaultOfItsLane(String kind) throws Exception {
        String sm = kind.startsWith("below") ? "sm_90" : "sm_80";
        int[] rows = rows(3);
        int[] regs = new int[32];
        for (int l = 0; l < 32; l++) {
            regs[l] = sharedBase(sm) + 16 * rows[l];
        }
        int bad = switch (kind) {
            case "misaligned" -> regs[13] + 8;
            case "out of bounds" -> sharedBase(sm) + SHARED;
            default -> 0x3f0;
        };
        regs[13] = bad;
        Run r = run(sm, image(4, SHARED), regs, 0, "", "LDSM.16.MT88.4 R20, [R16]");
        Fault.MemoryFault f = assertInstanceOf(Fault.MemoryFault.class, r.result().fault().orElseThrow());
        assertEquals(13, f.thread().thread().x(), f.describe());
        assertEquals(AddressSpace.SHARED, f.access().space());
        assertEquals(bad, f.access().address());
        assertEquals(16, f.access().size());
        assertTrue(f.describe().contains(kind.equals("misaligned") ? "misaligned" : "out of bounds"), f.describe());
        assertTrue(f.instruction().contains("LDSM.16.MT88.4"), f.instruction());
    }

    /** A row whose lane does not execute LDSM (its guard is false) is undefined: the run stops. */
    @Test
    void rowOfAnInactiveLaneIsInvalid() throws Exception {
        int[] regs = new int[32];
        for (int l = 0; l < 32; l++) {
            regs[l] = 16 * l;
        }
        Run r = run("sm_80", image(5, SHARED), regs, 0, "ISETP.NE.AND P0, PT, R0, 0x3, PT",
                "@P0 LDSM.16.M88 R20, [R16]");
        Fault.InvalidExecution f = assertInstanceOf(Fault.InvalidExecution.class, r.result().fault().orElseThrow());
        assertTrue(f.message().contains("lane 3"), f.describe());
        // the same guard with lane 3 outside the rows read (.x1 reads lanes 0..7; lane 9 is off): fine
        Run ok = run("sm_80", image(5, SHARED), regs, 0, "ISETP.NE.AND P0, PT, R0, 0x9, PT",
                "@P0 LDSM.16.M88 R20, [R16]");
        assertTrue(ok.result().completed(), () -> ok.result().fault().orElseThrow().describe());
        int[] rows = new int[32];
        for (int l = 0; l < 32; l++) {
            rows[l] = l;
        }
        int[][] want = fragmentsOfRows(image(5, SHARED), rows, 1, false);
        for (int t = 0; t < 32; t++) {
            assertEquals(t == 9 ? SENTINEL : want[t][0], ok.threads()[t].r[RD], "lane " + t);
        }
    }

    /**
     * LDSM assembled with the tables of sm_80, sm_86 and sm_90 decodes into the instruction the tests above run:
     * its name, the destination, the shared address as the emulator reads it, and a warp-collective fast-path op.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sm_80", "sm_86", "sm_90"})
    void assembledLdsmDecodesToTheFormsRunHere(String sm) {
        SassOperand.Mem r16 = new SassOperand.Mem(16, false, 1, -1, 0, false);
        SassOperand.Mem r16x40 = new SassOperand.Mem(16, false, 1, -1, 0x40, false);
        List<String> lines = new ArrayList<>(List.of("LDSM.16.M88 R20, [R16]", "LDSM.16.M88.2 R20, [R16+0x40]",
                "LDSM.16.M88.4 R20, [R16+0x40]", "LDSM.16.MT88 R20, [R16+0x40]", "LDSM.16.MT88.2 R20, [R16]",
                "LDSM.16.MT88.4 R20, [RZ+0x50]"));
        List<SassOperand> addresses = new ArrayList<>(List.of(r16, r16x40, r16x40, r16x40, r16,
                new SassOperand.Mem(-1, false, 1, -1, 0x50, false)));
        if (!sm.equals("sm_80")) {
            lines.add("LDSM.16.MT88.4 R20, [R16+UR4+0x10]");
            addresses.add(new SassOperand.Mem(16, false, 1, 4, 0x10, false));
        }
        List<SassOp> decoded = AssembledText.ops(sm, lines, Map.of());
        for (int k = 0; k < lines.size(); k++) {
            SassOp got = decoded.get(k);
            assertEquals(lines.get(k).substring(0, lines.get(k).indexOf(' ')), got.fullName(), got.text());
            assertEquals(List.of(new SassOperand.Reg(20, false, false, false, ""), addresses.get(k)), got.operands(),
                    got.text());
            assertTrue(DecodedOp.decode(got, 250).collective, got.text());
        }
    }
}
