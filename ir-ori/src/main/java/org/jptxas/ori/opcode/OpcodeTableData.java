package org.jptxas.ori.opcode;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The JSON shape of {@code ori-opcodes.json}; validated on construction so a bad table fails while loading.
 *
 * @param opcodes        ptxas's opcodes, at ptxas's indices {@code 0..opcodeCount-1}
 * @param jptxasNote     what the {@code jptxasOpcodes} list is (documentation carried in the table)
 * @param jptxasOpcodes  SASS mnemonics ptxas's name table does not name; jptxas numbers them from
 *                       {@code opcodeCount} upward in list order (jptxas's numbers, not ptxas's)
 */
public record OpcodeTableData(String source, int opcodeCount, List<Generation> generations, List<Entry> opcodes,
        String jptxasNote, List<JptxasEntry> jptxasOpcodes) {

    /** An SM generation owns the contiguous opcode range {@code first..last}. */
    public record Generation(int sm, int first, int last) {
        public Generation {
            if (first < 0 || last < first) {
                throw new IllegalArgumentException("generation sm_" + sm + ": bad range " + first + ".." + last);
            }
        }
    }

    public record Entry(int index, String name, OpcodeGroup group, String description) {
        public Entry {
            Objects.requireNonNull(name, "name");
            if (!name.matches("[A-Z][A-Z0-9_]*")) {
                throw new IllegalArgumentException("opcode " + index + ": name '" + name + "' is not a SASS mnemonic");
            }
        }
    }

    /** A jptxas-numbered opcode: {@code sm} is the first SM generation whose SASS has it. */
    public record JptxasEntry(String name, OpcodeGroup group, int sm, String description) {
        public JptxasEntry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(description, "description");
            if (!name.matches("[A-Z][A-Z0-9_]*")) {
                throw new IllegalArgumentException("jptxas opcode '" + name + "' is not a SASS mnemonic");
            }
        }
    }

    /** A table without jptxas's own opcodes (tests). */
    public OpcodeTableData(String source, int opcodeCount, List<Generation> generations, List<Entry> opcodes) {
        this(source, opcodeCount, generations, opcodes, "", List.of());
    }

    public OpcodeTableData {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(jptxasNote, "jptxasNote");
        generations = List.copyOf(generations);
        opcodes = List.copyOf(opcodes);
        jptxasOpcodes = List.copyOf(jptxasOpcodes);
        int expectedFirst = 0;
        for (Generation g : generations) {
            if (g.first() != expectedFirst) {
                throw new IllegalArgumentException("generation sm_" + g.sm() + " starts at " + g.first()
                        + " but the previous range ends at " + (expectedFirst - 1));
            }
            expectedFirst = g.last() + 1;
        }
        Map<Integer, String> byIndex = new HashMap<>();
        Set<String> names = new HashSet<>();
        for (Entry e : opcodes) {
            if (e.index() < 0 || e.index() >= opcodeCount) {
                throw new IllegalArgumentException("opcode " + e.name() + ": index " + e.index() + " outside 0.." + (opcodeCount - 1));
            }
            String previous = byIndex.putIfAbsent(e.index(), e.name());
            if (previous != null) {
                throw new IllegalArgumentException("opcode index " + e.index() + " given twice (" + previous + ", " + e.name() + ")");
            }
            if (!names.add(e.name())) {
                throw new IllegalArgumentException("opcode name " + e.name() + " given twice");
            }
        }
        for (JptxasEntry e : jptxasOpcodes) {
            if (!names.add(e.name())) {
                throw new IllegalArgumentException("jptxas opcode " + e.name() + " is already named");
            }
        }
    }
}
