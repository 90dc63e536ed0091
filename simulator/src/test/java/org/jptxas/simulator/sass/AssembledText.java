package org.jptxas.simulator.sass;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassIsa;
import org.jptxas.spi.TestTargets;

/**
 * Hand-written SASS text made into the emulator's instructions the way a cubin's code is: assembled by the codec's
 * assembler (the project's one reader of SASS text) with the target's tables, then decoded and built from the typed
 * forms ({@link SassListing#decodeFunction}). Text no form of the tables encodes fails the test by name.
 */
final class AssembledText {
    private AssembledText() {}

    /** The lines of {@code entries}: an entry may hold several lines ({@link SassTextRun#pointer}). */
    static List<String> lines(List<String> entries) {
        List<String> out = new java.util.ArrayList<>();
        for (String e : entries) {
            out.addAll(List.of(e.split("\n")));
        }
        return out;
    }

    /** {@code code} (one instruction per line, 16 bytes apart from address 0); {@code labels} by name. */
    static List<SassOp> ops(String sm, List<String> entries, Map<String, Long> labels) {
        List<String> code = lines(entries);
        SassIsa isa = TestTargets.of(sm).isa();
        SassAssembler assembler = new SassAssembler(isa);
        ByteBuffer words = ByteBuffer.allocate(16 * code.size()).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < code.size(); k++) {
            long[] w = assembler.assemble(code.get(k), 16L * k, name -> {
                Long address = labels.get(name);
                if (address == null) {
                    throw new IllegalArgumentException("no label " + name);
                }
                return address;
            });
            words.putLong(w[0]).putLong(w[1]);
        }
        return SassListing.decodeFunction(isa, words.array(), 0);
    }
}
