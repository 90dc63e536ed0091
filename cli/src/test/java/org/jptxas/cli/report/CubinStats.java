package org.jptxas.cli.report;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinFacts;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.spi.TestTargets;

/**
 * Instruction and register counts of a cubin's functions, as the ratio report compares them: instructions up to
 * the function's end, without the trailing self-branch and NOP padding; registers as REGCOUNT in .nv.info.
 */
record CubinStats(List<Function> functions, int hazards, long cycles) {
    /** @param stallCycles the sum of the stall counts of the counted instructions' control words */
    record Function(String name, boolean entry, int instructions, int registers, long stallCycles) {}

    static CubinStats of(byte[] cubinBytes) {
        Cubin cubin = Cubin.read(cubinBytes);
        SassIsa isa = TestTargets.of("sm_" + cubin.sm()).isa();
        List<Function> out = new ArrayList<>();
        java.util.Map<String, Integer> counted = new java.util.HashMap<>();
        for (FunctionFacts f : CubinFacts.functions(cubin)) {
            byte[] code = f.code();
            int n = countInstructions(isa, code);
            out.add(new Function(f.name(), f.entry(), n, f.registers(), stallCycles(code, n)));
            counted.put(f.name(), n);
        }
        int hazards;
        try {
            hazards = org.jptxas.scheduler.sass.ControlAgreement.checkHazards(cubinBytes, TestTargets.of("sm_" + cubin.sm())).size();
        } catch (RuntimeException e) {
            hazards = -1;
        }
        long cycles;
        try {
            cycles = StaticCycles.of(cubinBytes, cubin.sm(), counted);
        } catch (RuntimeException e) {
            cycles = 0;
        }
        return new CubinStats(out, hazards, cycles);
    }

    /** The stall counts ([108:105]) of the first {@code n} instructions, summed. */
    static long stallCycles(byte[] code, int n) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(code).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long sum = 0;
        for (int k = 0; k < n; k++) {
            sum += org.jptxas.sass.Control.fromHi(b.getLong(16 * k + 8)).stall();
        }
        return sum;
    }

    /** Instructions before the layout tail: trailing NOPs, then the self-branch {@code BRA `(.L_x_N)} before them. */
    static int countInstructions(SassIsa isa, byte[] code) {
        List<SassInstruction> all = isa.decodeAll(code, 0, code.length);
        int n = all.size();
        while (n > 0 && mnemonic(all.get(n - 1)).equals("NOP")) {
            n--;
        }
        if (n > 0 && mnemonic(all.get(n - 1)).equals("BRA")
                && all.get(n - 1) instanceof SassInstruction.Known k
                && k.branchTargets(16L * (n - 1)).equals(List.of(16L * (n - 1)))) {
            n--;
        }
        return n;
    }

    private static String mnemonic(SassInstruction in) {
        return in instanceof SassInstruction.Known k ? k.mnemonic() : "?";
    }

    int instructions() {
        return functions.stream().mapToInt(Function::instructions).sum();
    }

    long stallCycles() {
        return functions.stream().mapToLong(Function::stallCycles).sum();
    }

    /** The largest register count of the module's functions (a kernel's launch needs its own). */
    int registers() {
        return functions.stream().mapToInt(Function::registers).max().orElse(0);
    }
}
