package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jptxas.cubin.RegisterMaps;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * Where the PTX registers of a {@code -g} function live, for its register map ({@link RegisterMaps}): the front
 * end names the virtual register of each PTX register ({@link FunctionBody#namedRegisters}); before allocation
 * {@link #before} notes the instructions writing each one and the PTX lines writing and reading it; after allocation
 * those instructions' destinations are the physical registers holding it ({@link Snapshot#after}); once the code is
 * laid out each piece's range runs from the first instruction of the lines writing it to the end of the last
 * instruction of the lines writing or reading it ({@link #entries}).
 */
final class RegisterHomes {
    private RegisterHomes() {}

    /**
     * Where an instruction names a PTX register's virtual register: destination or source {@code slot}, naming
     * {@code part} of it ({@link Reg#part}).
     */
    private record Site(Instr instr, boolean destination, int slot, int part) {
        /** The register the slot holds now, or null when a pass changed the instruction's operands. */
        Reg now() {
            if (destination) {
                return slot < instr.dsts().size() ? instr.dsts().get(slot) : null;
            }
            return slot < instr.srcs().size() && instr.srcs().get(slot).value() instanceof Reg r ? r : null;
        }
    }

    /** One PTX register before allocation: the instructions naming it, and the PTX lines writing and reading it. */
    private record Tracked(FunctionBody.NamedRegister named, List<Site> sites, TreeSet<Integer> defLines,
                           TreeSet<Integer> useLines) {}

    /** The PTX registers of a function as the front end lowered them, to be read again after allocation. */
    static final class Snapshot {
        private final List<Tracked> tracked;

        private Snapshot(List<Tracked> tracked) {
            this.tracked = tracked;
        }

        /**
         * Where each piece of each PTX register is after allocation, one home per piece and physical register: the
         * registers the noted instructions name in its place (writers first; a copy the allocator deleted, as one
         * whose two sides got one register, is skipped, its register being the other instructions' too).
         */
        List<Home> after() {
            List<Home> homes = new ArrayList<>();
            for (Tracked t : tracked) {
                RegFile file = t.named().register().file();
                Map<Long, Home> found = new LinkedHashMap<>();
                for (Site site : t.sites()) {
                    Reg p = site.now();
                    if (p == null || p.virtual() || p.file() != file || p.isZero()) {
                        continue;
                    }
                    int part = site.part();
                    for (int c = 0; c < (part == Reg.WHOLE ? p.comps() : 1); c++) {
                        int piece = part == Reg.WHOLE ? c : part;
                        found.putIfAbsent((long) piece << 32 | (p.index() + c), new Home(t.named(), piece,
                                p.index() + c, t.defLines(), t.useLines()));
                    }
                }
                homes.addAll(found.values());
            }
            return homes;
        }
    }

    /**
     * Piece {@code piece} of PTX register {@code named} lives in physical register {@code number} of its file; the
     * PTX lines writing and reading the register.
     */
    record Home(FunctionBody.NamedRegister named, int piece, int number, TreeSet<Integer> defLines,
                TreeSet<Integer> useLines) {}

    /** Notes the named registers' writers and lines in {@code f}'s body as lowered (before any rewriting). */
    static Snapshot before(OriFunction f) {
        List<Tracked> tracked = new ArrayList<>();
        Map<Long, Tracked> byRegister = new LinkedHashMap<>();
        for (FunctionBody.NamedRegister n : f.body().namedRegisters()) {
            Reg r = n.register();
            if (!r.virtual() || (r.file() != RegFile.R && r.file() != RegFile.P)) {
                continue;
            }
            Tracked t = new Tracked(n, new ArrayList<>(), new TreeSet<>(), new TreeSet<>());
            tracked.add(t);
            byRegister.putIfAbsent(key(r), t);
        }
        List<Site> reads = new ArrayList<>();
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                List<Reg> dsts = in.dsts();
                for (int k = 0; k < dsts.size(); k++) {
                    Tracked t = dsts.get(k).virtual() ? byRegister.get(key(dsts.get(k))) : null;
                    if (t != null) {
                        t.sites().add(new Site(in, true, k, dsts.get(k).part()));
                        if (in.line() > 0) {
                            t.defLines().add(in.line());
                        }
                    }
                }
                for (int k = 0; k < in.srcs().size(); k++) {
                    if (in.srcs().get(k).value() instanceof Reg r && r.virtual() && byRegister.containsKey(key(r))) {
                        reads.add(new Site(in, false, k, r.part()));
                    }
                }
                for (Reg r : in.usedRegs()) {
                    Tracked t = r.virtual() ? byRegister.get(key(r)) : null;
                    if (t != null && in.line() > 0) {
                        t.useLines().add(in.line());
                    }
                }
            }
        }
        for (Site s : reads) {
            byRegister.get(key(s.now())).sites().add(s); // after the writers
        }
        return new Snapshot(tracked);
    }

    private static long key(Reg r) {
        return (long) r.file().ordinal() << 32 | r.index();
    }

    /**
     * The register map entries of {@code homes} in {@code code} (16 bytes an instruction from 0): a piece's range
     * starts at the first instruction of a line writing it and ends after the last instruction of a line writing
     * or reading it; a register none of whose lines kept code is left out. Ordered by start, then by name and piece.
     */
    static RegisterMaps.Function entries(String function, List<Home> homes, List<CodeLine> code) {
        Map<Integer, long[]> lineSpan = new LinkedHashMap<>();
        for (int i = 0; i < code.size(); i++) {
            int line = code.get(i).ptxLine();
            if (line > 0) {
                long address = (long) i * FunctionLayout.INSTRUCTION_BYTES;
                long[] span = lineSpan.computeIfAbsent(line, l -> new long[] {address, address});
                span[0] = Math.min(span[0], address);
                span[1] = Math.max(span[1], address);
            }
        }
        List<RegisterMaps.Entry> entries = new ArrayList<>();
        for (Home h : homes) {
            long start = Long.MAX_VALUE;
            long last = -1;
            for (int line : h.defLines()) {
                long[] span = lineSpan.get(line);
                if (span != null) {
                    start = Math.min(start, span[0]);
                    last = Math.max(last, span[1]);
                }
            }
            for (int line : h.useLines()) {
                long[] span = lineSpan.get(line);
                if (span != null) {
                    last = Math.max(last, span[1]);
                }
            }
            if (start == Long.MAX_VALUE) {
                continue;
            }
            FunctionBody.NamedRegister n = h.named();
            entries.add(new RegisterMaps.Entry(h.piece(), n.name(), mapType(n.type(), n.bytes()), kind(n), h.number(),
                    start, last + FunctionLayout.INSTRUCTION_BYTES));
        }
        entries.sort(Comparator.comparingLong(RegisterMaps.Entry::start).thenComparing(RegisterMaps.Entry::register)
                .thenComparingInt(RegisterMaps.Entry::piece));
        return new RegisterMaps.Function(function, entries);
    }

    private static RegisterMaps.RegisterKind kind(FunctionBody.NamedRegister n) {
        if (n.register().file() == RegFile.P) {
            return RegisterMaps.RegisterKind.PREDICATE;
        }
        return n.bytes() <= 2 ? RegisterMaps.RegisterKind.GENERAL_16 : RegisterMaps.RegisterKind.GENERAL;
    }

    /** The declared type, or a type the map has no code for ({@code .bf16}, {@code .tf32}) as the bit type of its size. */
    static String mapType(String type, int bytes) {
        if (RegisterMaps.TYPES.contains(type)) {
            return type;
        }
        return switch (bytes) {
            case 1 -> ".b8";
            case 2 -> ".b16";
            case 8 -> ".b64";
            case 16 -> ".b128";
            default -> ".b32";
        };
    }
}
