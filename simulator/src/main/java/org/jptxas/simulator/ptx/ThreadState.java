package org.jptxas.simulator.ptx;

import org.jptxas.simulator.exec.ThreadRef;
import org.jptxas.simulator.launch.Dim3Point;
import org.jptxas.simulator.memory.Region;

/** The architectural state of one thread: position in the block, call stack, program counter, wait states. */
final class ThreadState {
    final Machine machine;
    final CtaState cta;
    final int linear;
    final int lane;
    final int warp;
    final int tidX;
    final int tidY;
    final int tidZ;
    Frame frame;
    int pc;
    boolean exited;
    /** Barrier the thread waits at, or -1. */
    int barrier = -1;
    /** Waiting for the rest of its warp at a warp-synchronous instruction. */
    boolean warpWait;
    /** bar.red: this thread's predicate and where the result goes. */
    boolean barrierPredicate;
    /** The condition-code carry flag of {@code add.cc}/{@code addc}/{@code sub.cc}/{@code subc}/{@code mad.cc}. */
    boolean carry;
    Region local;
    /** cp.async groups of this thread (created by its first cp.async). */
    org.jptxas.simulator.exec.AsyncCopies asyncCopies;
    int localTop;

    ThreadState(Machine machine, CtaState cta, int linear, Dim3Point tid) {
        this.machine = machine;
        this.cta = cta;
        this.linear = linear;
        this.lane = linear & 31;
        this.warp = linear >>> 5;
        this.tidX = tid.x();
        this.tidY = tid.y();
        this.tidZ = tid.z();
    }

    ThreadRef ref() {
        return new ThreadRef(cta.index, new Dim3Point(tidX, tidY, tidZ));
    }

    /** Scheduling key: deeper frames first, then lowest (function, pc), so divergent paths reconverge. */
    long key() {
        return ((long) (4095 - Math.min(frame.depth, 4095)) << 48) | ((long) frame.function.id << 32) | pc;
    }
}
