package org.jptxas.ori.opcode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jptxas.tables.TableLoader;

/** Typed, immutable view of the Ori opcode table ({@code tables/ori-opcodes.json}). Thread-safe. */
public final class OriOpcodes {
    public static final String TABLE = "ori-opcodes.json";

    private final OriOpcode[] byIndex;
    private final Map<String, OriOpcode> byName;
    private final List<OpcodeTableData.Generation> generations;
    private final int ptxasCount;

    private OriOpcodes(OpcodeTableData data) {
        this.generations = data.generations();
        this.ptxasCount = data.opcodeCount();
        this.byIndex = new OriOpcode[data.opcodeCount() + data.jptxasOpcodes().size()];
        Map<String, OriOpcode> names = new HashMap<>();
        for (OpcodeTableData.Entry e : data.opcodes()) {
            OriOpcode op = new OriOpcode(e.index(), e.name(), e.group(), e.description(), generationOf(e.index()));
            byIndex[e.index()] = op;
            names.put(e.name(), op);
        }
        int next = data.opcodeCount();
        for (OpcodeTableData.JptxasEntry e : data.jptxasOpcodes()) {
            OriOpcode op = new OriOpcode(next, e.name(), e.group(), e.description(), e.sm());
            byIndex[next++] = op;
            names.put(e.name(), op);
        }
        this.byName = Collections.unmodifiableMap(names);
    }

    private static final class Holder {
        static final OriOpcodes INSTANCE = from(TableLoader.load(TABLE, OpcodeTableData.class));
    }

    /** The bundled table, loaded once. */
    public static OriOpcodes get() {
        return Holder.INSTANCE;
    }

    /** Builds the typed view over table data (tests use this with their own tables). */
    public static OriOpcodes from(OpcodeTableData data) {
        return new OriOpcodes(data);
    }

    /** Number of opcode slots (named or not): ptxas's table followed by jptxas's own opcodes. */
    public int size() {
        return byIndex.length;
    }

    /** Number of slots of ptxas's own table; indices from here on are jptxas's {@code jptxasOpcodes}. */
    public int ptxasCount() {
        return ptxasCount;
    }

    /** True for an opcode jptxas numbered itself (not in ptxas's name table). */
    public boolean isJptxasOpcode(OriOpcode op) {
        return op.index() >= ptxasCount;
    }

    /** The opcode named {@code name}; an {@link IllegalArgumentException} for a name neither list has. */
    public OriOpcode require(String name) {
        OriOpcode op = byName.get(name);
        if (op == null) {
            throw new IllegalArgumentException("no Ori opcode named " + name);
        }
        return op;
    }

    public Optional<OriOpcode> byIndex(int index) {
        return index < 0 || index >= byIndex.length ? Optional.empty() : Optional.ofNullable(byIndex[index]);
    }

    public Optional<OriOpcode> byName(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The SM generation whose range holds {@code index}; -1 when no range does. */
    public int generationOf(int index) {
        for (OpcodeTableData.Generation g : generations) {
            if (index >= g.first() && index <= g.last()) {
                return g.sm();
            }
        }
        return -1;
    }

    public List<OpcodeTableData.Generation> generations() {
        return generations;
    }

    /** Named opcodes in index order. */
    public List<OriOpcode> all() {
        List<OriOpcode> out = new ArrayList<>();
        for (OriOpcode op : byIndex) {
            if (op != null) {
                out.add(op);
            }
        }
        return Collections.unmodifiableList(out);
    }
}
