package org.jptxas.frontend.ptx.lower;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The instruction lowerers found on the class path ({@code @AutoService(InstructionLowerer.class)}), keyed by base
 * opcode. Two lowerers claiming one opcode is a build error, reported when the registry loads. Immutable.
 */
public final class LowererRegistry {
    private final Map<String, InstructionLowerer> byOpcode;

    private LowererRegistry(Map<String, InstructionLowerer> byOpcode) {
        this.byOpcode = Collections.unmodifiableMap(byOpcode);
    }

    /** Builds a registry over {@code lowerers}; fails when two claim the same opcode. */
    public static LowererRegistry of(Iterable<? extends InstructionLowerer> lowerers) {
        Map<String, InstructionLowerer> map = new HashMap<>();
        for (InstructionLowerer l : lowerers) {
            for (String op : l.opcodes()) {
                InstructionLowerer previous = map.putIfAbsent(op, l);
                if (previous != null) {
                    throw new IllegalStateException("PTX opcode '" + op + "' is claimed by two lowerers: "
                            + previous.getClass().getName() + " and " + l.getClass().getName());
                }
            }
        }
        return new LowererRegistry(map);
    }

    private static final class Holder {
        static final LowererRegistry INSTANCE =
                of(ServiceLoader.load(InstructionLowerer.class, LowererRegistry.class.getClassLoader()));
    }

    /** The lowerers of the class path, loaded once. */
    public static LowererRegistry get() {
        return Holder.INSTANCE;
    }

    public Optional<InstructionLowerer> forOpcode(String opcode) {
        return Optional.ofNullable(byOpcode.get(opcode));
    }

    /** The base opcodes that have a lowerer, sorted. */
    public List<String> opcodes() {
        return byOpcode.keySet().stream().sorted().toList();
    }
}
