package org.jptxas.simulator.exec;

import org.jptxas.simulator.launch.Dim3Point;
import org.jptxas.simulator.memory.MemoryAccessException;

/**
 * Why a launch did not complete. Every fault names what a user needs to find the bug: the thread, the instruction
 * (an address or a source line, as the executor knows it) and, for memory faults, the address.
 */
public sealed interface Fault {
    /** One line for a summary. */
    String describe();

    /** An access outside every allocation, or misaligned. */
    record MemoryFault(ThreadRef thread, String instruction, MemoryAccessException access) implements Fault {
        @Override
        public String describe() {
            return "memory fault: " + access.describe() + ", " + thread + ", at " + instruction;
        }
    }

    /** {@code trap} / {@code BPT.TRAP}, or a failed {@code brkpt}-style abort. */
    record Trap(ThreadRef thread, String instruction) implements Fault {
        @Override
        public String describe() {
            return "trap: " + thread + ", at " + instruction;
        }
    }

    /** Threads of a block wait at a barrier that can never complete (the others exited or wait elsewhere). */
    record BarrierDeadlock(Dim3Point block, String detail) implements Fault {
        @Override
        public String describe() {
            return "barrier deadlock in block " + block + ": " + detail;
        }
    }

    /** The launch ran more warp instructions than allowed (an endless loop, or a limit set too low). */
    record StepLimitExceeded(long limit, ThreadRef thread, String instruction) implements Fault {
        @Override
        public String describe() {
            return "step limit of " + limit + " warp instructions exceeded (endless loop?), " + thread + ", at " + instruction;
        }
    }

    /** The executor cannot run an instruction: it stops rather than compute a wrong value. */
    record Unimplemented(String name, String instruction) implements Fault {
        @Override
        public String describe() {
            return "unimplemented instruction " + name + " at " + instruction;
        }
    }

    /** Any other invalid execution (a shuffle with a lane outside its mask, a bad call target, ...). */
    record InvalidExecution(ThreadRef thread, String instruction, String message) implements Fault {
        @Override
        public String describe() {
            return message + ": " + thread + ", at " + instruction;
        }
    }
}
