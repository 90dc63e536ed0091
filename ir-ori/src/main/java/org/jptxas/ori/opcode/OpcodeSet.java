package org.jptxas.ori.opcode;

import java.util.Set;

/**
 * A fixed set of opcodes given by name and asked by opcode. For the bundled table's opcodes (what compilation uses)
 * the answer is one array read by index; a {@code Set<String>} lookup hashes and compares the name, which the
 * optimizer's passes paid per instruction and pass. Opcodes of another table (tests build their own) are looked up
 * by name.
 */
public final class OpcodeSet {
    private final Set<String> names;
    /** The bundled table's opcode at each index, to tell its opcodes from another table's with the same index. */
    private final OriOpcode[] bundled;
    private final boolean[] member;

    private OpcodeSet(Set<String> names) {
        this.names = names;
        OriOpcodes table = OriOpcodes.get();
        bundled = new OriOpcode[table.size()];
        member = new boolean[table.size()];
        for (int i = 0; i < bundled.length; i++) {
            OriOpcode op = table.byIndex(i).orElse(null);
            bundled[i] = op;
            member[i] = op != null && names.contains(op.name());
        }
    }

    public static OpcodeSet of(String... names) {
        return new OpcodeSet(Set.of(names));
    }

    public boolean contains(OriOpcode op) {
        int i = op.index();
        if (i >= 0 && i < bundled.length && bundled[i] == op) {
            return member[i];
        }
        return names.contains(op.name());
    }
}
