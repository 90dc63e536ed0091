package org.jptxas.scheduler.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** A plain, immutable {@link SchedInstr}; adapters and tests build them with {@link #builder(String)}. */
public record SimpleInstr(
        String name,
        String latencyClass,
        List<RegRange> defs,
        List<RegRange> uses,
        RegRange guard,
        List<RegRange> reuseSlots,
        MemKind memKind,
        MemSpace memSpace,
        Set<SchedFlag> flags,
        ScoreboardDrain scoreboardDrain) implements SchedInstr {

    public SimpleInstr(String name, String latencyClass, List<RegRange> defs, List<RegRange> uses, RegRange guard,
                       List<RegRange> reuseSlots, MemKind memKind, MemSpace memSpace, Set<SchedFlag> flags) {
        this(name, latencyClass, defs, uses, guard, reuseSlots, memKind, memSpace, flags, ScoreboardDrain.NONE);
    }

    public SimpleInstr {
        Objects.requireNonNull(latencyClass, "latencyClass");
        defs = List.copyOf(defs);
        uses = List.copyOf(uses);
        reuseSlots = java.util.Collections.unmodifiableList(new ArrayList<>(reuseSlots));
        flags = flags.isEmpty() ? Set.of() : Set.copyOf(flags);
        Objects.requireNonNull(scoreboardDrain, "scoreboardDrain");
    }

    public static Builder builder(String latencyClass) {
        return new Builder(latencyClass);
    }

    @Override
    public String toString() {
        return name != null ? name : latencyClass + " " + defs + " <- " + uses;
    }

    /** Collects the parts of a {@link SimpleInstr}. */
    public static final class Builder {
        private final String latencyClass;
        private String name;
        private final List<RegRange> defs = new ArrayList<>();
        private final List<RegRange> uses = new ArrayList<>();
        private RegRange guard;
        private List<RegRange> reuseSlots = List.of();
        private MemKind memKind = MemKind.NONE;
        private MemSpace memSpace = MemSpace.NONE;
        private final EnumSet<SchedFlag> flags = EnumSet.noneOf(SchedFlag.class);
        private ScoreboardDrain scoreboardDrain = ScoreboardDrain.NONE;

        private Builder(String latencyClass) {
            this.latencyClass = latencyClass;
        }

        public Builder name(String n) {
            name = n;
            return this;
        }

        public Builder def(RegFile f, int reg, int count) {
            defs.add(new RegRange(f, reg, count));
            return this;
        }

        public Builder def(RegFile f, int reg) {
            return def(f, reg, 1);
        }

        public Builder use(RegFile f, int reg, int count) {
            uses.add(new RegRange(f, reg, count));
            return this;
        }

        public Builder use(RegFile f, int reg) {
            return use(f, reg, 1);
        }

        public Builder def(RegRange r) {
            defs.add(r);
            return this;
        }

        public Builder use(RegRange r) {
            uses.add(r);
            return this;
        }

        public Builder guard(RegFile f, int reg) {
            guard = RegRange.of(f, reg);
            return this;
        }

        public Builder reuseSlots(RegRange... slots) {
            reuseSlots = Arrays.asList(slots);
            return this;
        }

        public Builder mem(MemKind kind, MemSpace space) {
            memKind = kind;
            memSpace = space;
            return this;
        }

        public Builder flag(SchedFlag f) {
            flags.add(f);
            return this;
        }

        /** Scoreboards the instruction drains before the next one issues (see {@link SchedInstr#scoreboardDrain()}). */
        public Builder scoreboardDrain(ScoreboardDrain d) {
            scoreboardDrain = d;
            return this;
        }

        public SimpleInstr build() {
            return new SimpleInstr(name, latencyClass, defs, uses, guard, reuseSlots, memKind, memSpace, flags, scoreboardDrain);
        }
    }
}
