package org.jptxas.isel.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.spi.TargetDescription;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.gate.Figures;
import org.jptxas.tables.isel.ModTest;
import org.jptxas.tables.isel.OperandKind;
import org.jptxas.tables.isel.OperandTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Walks every code-generating target's ISel matcher set and checks that what the matchers accept selects, after
 * legalization, to instructions the target's SASS table encodes, so that "no encoding form" / "no matcher selects"
 * are not reachable from those instructions. Reports every failure at once, by target, matcher and instruction.
 *
 * <p>The matcher tables are small rewrites over a pass-through fallback (which accepts any instruction), and the Ori
 * opcode table lists no modifiers or operands per opcode, so the instructions are not built from the matchers'
 * patterns but seeded from SASS forms, as the Ori instruction whose pass-through selection a form is:
 * <ul>
 *   <li>every canonical form of the target's own SASS table (what the lowering writes where it spells a target's own
 *       instruction: sm_89's fp8 F2FP, sm_90's F2FP.TF32, ...), and, for the opcodes a matcher of the target's set
 *       rewrites (sm_75's F2FP, sm_90's descriptor memory forms, ...), the forms of sm_80's table, the spelling Ori's
 *       instructions carry and the lowering writes for every target ({@link #CANONICAL_SPELLING}). Other targets'
 *       own spellings are not seeded: no lowering writes them for a target that is not theirs;
 *   <li>operands where the form's are plain: R, UR, P, UP (virtual; a {@code .64} suffix makes a pair; a field
 *       printed twice is one register), immediates (1; in a field of 32 bits or more also 0, 0x7fffffff and
 *       0x80000000, which the legalizer must move), {@code c[0x0][0x160]}, {@code [R+0x10]}; operand 0 is the
 *       destination when it is a register, and a predicate and a register first (ATOMG, LOP3) are two results;
 *   <li>addresses as the lowering builds them: a global or generic ({@code .E}) access takes a 64-bit register
 *       pair even where its table prints none (sm_75), since a module's addresses are 64-bit ({@code .address_size
 *       32} is refused, by ptxas and by the checker); shared, local and LDGSTS's shared destination stay 32-bit;
 *   <li>each instruction unguarded and under a virtual predicate guard (UP for uniform instructions: those that
 *       write uniform registers or none).
 * </ul>
 * Each instruction is taken by the matcher selection tries first ({@link InstructionSelector#best}), legalized as
 * the compiler does (a one-block body through {@link Legalizer#legalize}: moved immediates and constants, swapped
 * sources, descriptors), and every instruction of the body is given stand-in physical registers and selected; the
 * printer assembles each spelling through the codec, so a selected line is an encoded one.
 *
 * <p>Not covered: forms with labels, descriptors, uniform or indexed addresses, or modifiers written on operands
 * (negation, absolute value, {@code .H1}, {@code .reuse}); mnemonics that name no Ori opcode; modifier combinations
 * no table has a form for; whether a matcher's selection is the one ptxas makes. The seeds are SASS forms, not
 * the lowering's output, so a seed may be an instruction no PTX reaches on the target (sm_80's F2FP.BF16 on sm_75,
 * where PTX has no bf16). Those are described by the patterns of {@code isel-walk-unreachable.json} (matcher
 * patterns, each with its reason; cli IselWalkUnreachableTest proves them by compiling every PTX form that writes
 * the opcode for the target) and counted apart, not walked, where selection would pass them through unchanged (a
 * seed one of the target's rewrites takes is walked); every pattern must meet at least one seed. What is left
 * is checked against the known list {@code isel-walk-gaps.tsv} exactly (an unlisted failure fails, and so does a
 * listed one that no longer occurs), each row with the reason it is not yet encoded; its size is the figure
 * {@code isel.walk.gaps}; {@code -Djptxas.iselwalk.update=true} rewrites it (reasons kept).
 */
class IselWalkTest {
    static final String GAPS = "isel-walk-gaps.tsv";
    /** Patterns of the seeds no valid PTX lowers to on their targets (a matcher table; its emits are unused). */
    static final String UNREACHABLE = "isel-walk-unreachable.json";
    /**
     * The target whose SASS spelling Ori's instructions carry (common.json's fallback matcher, sm80-spelling): the
     * lowering writes it for every target, and a target's matchers rewrite it into the target's own.
     */
    static final String CANONICAL_SPELLING = "sm_80";

    /**
     * One walk's outcome for a target: the matchers taken, the instructions walked, the failures, and per pattern of
     * {@link #UNREACHABLE} the seeds it set apart as not reached from PTX on the target.
     */
    record Walk(int matchers, int instructions, Set<String> failures, java.util.Map<String, Integer> unreachable) {}

    @Test
    @Tag("slow") // about 65 s on 2 cores: some 18,500 instructions over 8 targets, each legalized and selected
    void everySelectedFormEncodesOnEveryTarget() throws IOException {
        TreeMap<String, Walk> walks = new TreeMap<>();
        Set<String> failures = new TreeSet<>();
        List<Matcher> unreachable = unreachablePatterns();
        java.util.Map<String, Integer> setApart = new TreeMap<>();
        unreachable.forEach(u -> setApart.put(u.name(), 0));
        List<TargetDescription> targets = new ArrayList<>();
        for (String target : TestTargets.names()) {
            TargetDescription d = TestTargets.of(target);
            if (d.codeGeneration()) {
                targets.add(d);
            }
        }
        for (TargetDescription d : targets) {
            InstructionSelector selector = InstructionSelector.of(d);
            Set<String> rewritten = new TreeSet<>();
            for (Matcher m : selector.matchers()) {
                if (m.data().targets().isEmpty() || m.data().targets().contains(selector.target())) {
                    rewritten.addAll(m.data().ops());
                }
            }
            List<Instr> seeds = new ArrayList<>(seeds(d.isa(), op -> true));
            if (!d.target().name().equals(CANONICAL_SPELLING)) {
                seeds.addAll(seeds(TestTargets.of(CANONICAL_SPELLING).isa(), rewritten::contains));
            }
            Walk w = walk(selector, seeds, unreachable);
            String target = d.target().name();
            walks.put(target, w);
            failures.addAll(w.failures());
            w.unreachable().forEach((name, n) -> setApart.merge(name, n, Integer::sum));
        }
        assertFalse(walks.isEmpty(), "no code-generating target");
        StringBuilder summary = new StringBuilder();
        walks.forEach((t, w) -> summary.append(t).append(": ").append(w.matchers()).append(" matchers, ")
                .append(w.instructions()).append(" instructions, ").append(w.failures().size()).append(" failures, ")
                .append(w.unreachable().values().stream().mapToInt(Integer::intValue).sum())
                .append(" not reached from PTX\n"));
        setApart.forEach((name, n) -> summary.append("  ").append(name).append(": ").append(n).append('\n'));
        System.out.print(summary);
        for (Walk w : walks.values()) {
            assertTrue(w.matchers() >= 1 && w.instructions() > 1000, "walk covers too little: " + summary);
        }
        List<String> idle = setApart.entrySet().stream().filter(e -> e.getValue() == 0).map(e -> e.getKey()).toList();
        assertEquals(List.of(), idle, UNREACHABLE + " patterns that set apart no seed (stale): " + summary);
        TreeMap<String, String> known = readGaps();
        if (Boolean.getBoolean("jptxas.iselwalk.update")) {
            writeGaps(failures, known);
            return;
        }
        Set<String> unlisted = new TreeSet<>(failures);
        unlisted.removeAll(known.keySet());
        Set<String> gone = new TreeSet<>(known.keySet());
        gone.removeAll(failures);
        assertEquals("", String.join("\n", unlisted) + (gone.isEmpty() ? "" : "\nlisted but no longer failing:\n"
                + String.join("\n", gone)), "ISel walk failures (target | matcher | instruction | error)");
        Figures.check("isel.walk.gaps", failures.size());
    }

    @Test
    void aMissingEncodingIsFound() {
        TargetDescription d = TestTargets.of("sm_80");
        InstructionSelector real = InstructionSelector.of(d);
        // A matcher that emits an opcode the SASS table has no form for: the walk must report every instruction.
        org.jptxas.tables.isel.MatcherTable planted = org.jptxas.tables.TableLoader.read("isel/planted.json",
                new java.io.ByteArrayInputStream(("{\"scope\": \"t\", \"description\": \"d\", \"matchers\": [{\"name\":"
                        + " \"planted\", \"priority\": 63, \"targets\": [], \"ops\": [\"IADD3\"], \"mods\": [],"
                        + " \"operands\": [\"1:R\"], \"emit\": [\"=NOSUCHOP\"], \"why\": \"w\"}]}")
                        .getBytes(StandardCharsets.UTF_8)), org.jptxas.tables.isel.MatcherTable.class);
        InstructionSelector sel = new InstructionSelector("sm_80", real.printer(), List.of(planted), List.of("planted"));
        Walk w = walk(sel, seeds(d.isa(), "IADD3"::equals), List.of());
        assertEquals(1, w.matchers());
        assertTrue(w.instructions() >= 4, "built " + w.instructions());
        assertEquals(w.instructions(), w.failures().size(), String.join("\n", w.failures()));
        assertTrue(w.failures().stream().allMatch(f -> f.startsWith("sm_80 | planted | ") && f.contains(" IADD3")
                && f.contains("no sm_80 matcher selects")), w.failures().toString());
    }

    @Test
    void aPatternSetsApartOnlyItsTargetsSeeds() {
        TargetDescription d = TestTargets.of("sm_80");
        List<Matcher> patterns = table("{\"scope\": \"t\", \"description\": \"d\", \"matchers\": [{\"name\":"
                + " \"only-sm75\", \"priority\": 1, \"targets\": [\"sm_75\"], \"ops\": [\"F2FP\"], \"mods\": [],"
                + " \"operands\": [], \"emit\": [], \"why\": \"w\"}, {\"name\": \"every-bf16-pack\", \"priority\": 1,"
                + " \"targets\": [], \"ops\": [\"F2FP\"], \"mods\": [\"BF16\"], \"operands\": [], \"emit\": [],"
                + " \"why\": \"w\"}]}");
        Walk all = walk(InstructionSelector.of(d), seeds(d.isa(), "F2FP"::equals), List.of());
        Walk w = walk(InstructionSelector.of(d), seeds(d.isa(), "F2FP"::equals), patterns);
        assertEquals(0, w.unreachable().get("only-sm75"));
        int bf16 = w.unreachable().get("every-bf16-pack");
        assertTrue(bf16 > 0, w.unreachable().toString());
        assertEquals(all.instructions(), w.instructions() + bf16, "a set-apart seed is not walked");
    }

    /** The patterns of {@link #UNREACHABLE}, as matchers (only their patterns are used). */
    static List<Matcher> unreachablePatterns() throws IOException {
        try (InputStream in = IselWalkTest.class.getResourceAsStream(UNREACHABLE)) {
            assertTrue(in != null, UNREACHABLE + " missing");
            return table(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static List<Matcher> table(String json) {
        org.jptxas.tables.isel.MatcherTable t = org.jptxas.tables.TableLoader.read("isel/" + UNREACHABLE,
                new java.io.ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
                org.jptxas.tables.isel.MatcherTable.class);
        return t.matchers().stream().map(m -> new Matcher(m, UNREACHABLE)).toList();
    }

    /**
     * Walks {@code selector}'s matchers over {@code seeds}: each seed (and its variants) that a matcher of the set
     * applies to, the matcher being the one selection takes first, is legalized and selected, unless that matcher
     * passes it through unchanged and one of {@code unreachable}'s patterns takes it on the selector's target
     * (counted per pattern, not walked).
     */
    static Walk walk(InstructionSelector selector, List<Instr> seeds, List<Matcher> unreachable) {
        Legalizer legalizer = new Legalizer(selector);
        Set<String> walkedMatchers = new TreeSet<>();
        int instructions = 0;
        Set<String> failures = new TreeSet<>();
        java.util.Map<String, Integer> setApart = new TreeMap<>();
        unreachable.forEach(u -> setApart.put(u.name(), 0));
        Set<String> seen = new java.util.HashSet<>();
        List<Instr> all = new ArrayList<>(seeds);
        for (Instr seed : seeds) {
            all.addAll(zeroRegisterVariants(selector, seed));
        }
        for (Instr seed : all) {
            for (Instr ins : variants(seed)) {
                String text = ins.toString();
                if (!seen.add(text)) {
                    continue;
                }
                Instr standIn = Legalizer.standIn(ins);
                Matcher m = selector.best(standIn);
                if (m == null) {
                    continue;
                }
                // only what selection would pass through unchanged: an instruction a rewrite of the set takes (sm_75's
                // F2FP.PACK_AB d, RZ, x, which f16-pack-is-f2f makes F2F) is one the set was written for, and walked
                Matcher apart = m.data().emit().isEmpty() ? unreachable.stream()
                        .filter(u -> u.matches(standIn, selector.target())).findFirst().orElse(null) : null;
                if (apart != null) {
                    setApart.merge(apart.name(), 1, Integer::sum);
                    continue;
                }
                walkedMatchers.add(m.name());
                instructions++;
                String failure = selectAll(selector, legalizer, ins);
                if (failure != null) {
                    failures.add(selector.target() + " | " + m.name() + " | " + text + " | " + failure);
                }
            }
        }
        return new Walk(walkedMatchers.size(), instructions, failures, setApart);
    }

    /**
     * The seed with RZ in each register operand that a matcher of the set for its opcode asks to be RZ (sm_75's
     * F2FP.PACK_AB d, RZ, x is F2F d, x): the instruction the lowering writes for that rewrite, which the virtual
     * registers of the seeds would not reach.
     */
    private static List<Instr> zeroRegisterVariants(InstructionSelector selector, Instr seed) {
        List<Instr> out = new ArrayList<>();
        int results = seed.dsts().size();
        for (Matcher m : selector.matchers()) {
            org.jptxas.tables.isel.MatcherData data = m.data();
            if (!data.ops().contains(seed.op().name())
                    || !(data.targets().isEmpty() || data.targets().contains(selector.target()))) {
                continue;
            }
            for (OperandTest t : data.operands()) {
                int k = t.index() - results;
                if (t.kinds().equals(java.util.EnumSet.of(OperandKind.RZ)) && k >= 0 && k < seed.srcs().size()
                        && seed.srcs().get(k).value() instanceof Reg r && r.virtual() && r.file() == RegFile.R
                        && r.comps() == 1) {
                    List<Src> srcs = new ArrayList<>(seed.srcs());
                    srcs.set(k, Src.of(Reg.RZ));
                    out.add(new Instr(seed.op(), seed.mods(), seed.dsts(), srcs, seed.guard(), 0));
                }
            }
        }
        return out;
    }

    /** The seed and the seed under a predicate guard (a uniform one for uniform instructions). */
    private static List<Instr> variants(Instr seed) {
        // a uniform instruction (U...) writes uniform registers or none (UCGABAR_ARV, USETMAXREG): its guard is UP
        boolean uniform = seed.op().name().startsWith("U") && seed.dsts().stream()
                .noneMatch(r -> r.virtual() && (r.file() == RegFile.R || r.file() == RegFile.P));
        Reg guard = Reg.virt(uniform ? RegFile.UP : RegFile.P, 300, 1);
        return List.of(seed, new Instr(seed.op(), seed.mods(), seed.dsts(), seed.srcs(), new Guard(guard, false), 0));
    }

    /**
     * The Ori instruction each canonical form of {@code isa} is the pass-through selection of, where its operands
     * are plain: registers (a {@code .64} suffix makes a pair), immediates, {@code c[bank][offset]} and
     * {@code [R+offset]}; forms with other operands (labels, descriptors, uniform addresses, modifiers written on
     * operands) and mnemonics that name no Ori opcode are left out, as are decode-only forms (nvdisasm's spellings of
     * words the assembler writes through another form, as ULEA without its UPT carry-out: no selection names them).
     * Operand 0 is the destination when it is a register.
     */
    static List<Instr> seeds(org.jptxas.sass.SassIsa isa, java.util.function.Predicate<String> opFilter) {
        List<Instr> out = new ArrayList<>();
        forms:
        for (org.jptxas.sass.SassForm f : isa.forms()) {
            if (f.decodeOnly()) {
                continue;
            }
            String[] parts = f.mnemonic().split("\\.");
            var op = OriOpcodes.get().byName(parts[0]);
            if (op.isEmpty() || !opFilter.test(parts[0])) {
                continue;
            }
            List<Operand> operands = new ArrayList<>();
            Set<Integer> wide = new java.util.HashSet<>();
            boolean pairAddress = extendedAddressUnspelled(f, parts);
            java.util.Map<String, Operand> byField = new java.util.HashMap<>();
            for (org.jptxas.sass.SassOperands.Operand o : f.operands().operands()) {
                String shape = o.shape();
                List<org.jptxas.sass.SassSlot> slots = new ArrayList<>();
                for (int k : o.slots()) {
                    slots.add(f.slot(k));
                }
                Operand made = operand(shape, slots, 100 + operands.size());
                if (pairAddress && made instanceof Addr a && !a.wide()) {
                    made = Addr.of(Reg.virt(RegFile.R, a.base().index(), 2), a.offset());
                }
                if (made == null) {
                    continue forms;
                }
                if (made instanceof Reg r && r.virtual() && slots.get(0) instanceof org.jptxas.sass.SassSlot.Field rf) {
                    // a form that prints one register field twice (BAR.SYNC R, R) names one register
                    made = byField.computeIfAbsent(rf.field().text(), k -> r);
                }
                if (made instanceof Imm && slots.get(0) instanceof org.jptxas.sass.SassSlot.Field fld
                        && fld.field().width() >= 32) {
                    wide.add(operands.size());
                }
                operands.add(made);
            }
            if (f.operands().guardSlot() >= 0) {
                continue;
            }
            List<Reg> dsts = new ArrayList<>();
            List<Src> srcs = new ArrayList<>();
            int results = 1;
            if (operands.size() > 1 && operands.get(0) instanceof Reg p0 && p0.file() == RegFile.P && p0.virtual()
                    && operands.get(1) instanceof Reg r1 && r1.file() == RegFile.R && r1.virtual()) {
                // a predicate result beside a register result (ATOMG, LOP3): both are destinations, as the lowering
                // writes them (AtomicLowerer, MathEmitter.lop3); PT there would print another form (nvdisasm leaves
                // LOP3's PT result out), so the seed keeps the predicate the form spells
                results = 2;
            }
            for (int i = 0; i < operands.size(); i++) {
                if (i < results && operands.get(i) instanceof Reg r && r.virtual()) {
                    dsts.add(r);
                } else {
                    srcs.add(Src.of(operands.get(i)));
                }
            }
            List<String> mods = List.of(parts).subList(1, parts.length);
            out.add(new Instr(op.get(), mods, dsts, srcs, Guard.ALWAYS, 0));
            // an immediate in a 32-bit field also at its edges (the legalizer must move what does not fit)
            for (int i = 0; i < srcs.size(); i++) {
                if (srcs.get(i).value() instanceof Imm && wide.contains(i + dsts.size())) {
                    for (long v : new long[] {0, 0x7fffffffL, 0x80000000L}) {
                        List<Src> edge = new ArrayList<>(srcs);
                        edge.set(i, Src.of(new Imm(v)));
                        out.add(new Instr(op.get(), mods, dsts, edge, Guard.ALWAYS, 0));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Whether {@code f} is a global or generic access ({@code .E}) whose table spells its address without {@code .64}
     * (sm_75 prints none; later tables have the 32-bit-address opcode beside the 64-bit one): the lowering gives such
     * an access a 64-bit register pair, the only address a module can have ({@code .address_size 32} is refused by
     * ptxas and by the checker, "32-Bit compilation is no longer supported"), so the seed takes a pair too. A form
     * that spells a 64-bit address (LDGSTS's global source) keeps its other addresses (the shared destination) 32-bit.
     */
    static boolean extendedAddressUnspelled(org.jptxas.sass.SassForm f, String[] parts) {
        if (!List.of(parts).subList(1, parts.length).contains("E")) {
            return false;
        }
        for (org.jptxas.sass.SassOperands.Operand o : f.operands().operands()) {
            if (o.shape().startsWith("[{}.64")) {
                return false;
            }
        }
        return true;
    }

    private static Operand operand(String shape, List<org.jptxas.sass.SassSlot> slots, int id) {
        List<org.jptxas.sass.SlotKind> kinds = new ArrayList<>();
        for (org.jptxas.sass.SassSlot s : slots) {
            if (!(s instanceof org.jptxas.sass.SassSlot.Field field)) {
                return null;
            }
            kinds.add(field.kind());
        }
        if ((shape.equals("{}") || shape.equals("{}.64")) && kinds.size() == 1) {
            int comps = shape.endsWith(".64") ? 2 : 1;
            return switch (kinds.get(0)) {
                case GPR -> Reg.virt(RegFile.R, id, comps);
                case UGPR -> Reg.virt(RegFile.UR, id, comps);
                case PRED -> comps == 1 ? Reg.virt(RegFile.P, id, 1) : null;
                case UPRED -> comps == 1 ? Reg.virt(RegFile.UP, id, 1) : null;
                case HEX, SHEX -> comps == 1 ? Imm.ofInt(1) : null;
                default -> null;
            };
        }
        if (shape.equals("c[{}][{}]") && kinds.size() == 2 && !kinds.get(0).isRegister() && !kinds.get(1).isRegister()) {
            return CBank.of(0, 0x160);
        }
        if ((shape.equals("[{}{}]") || shape.equals("[{}.64{}]")) && kinds.size() == 2
                && kinds.get(0) == org.jptxas.sass.SlotKind.GPR && kinds.get(1) == org.jptxas.sass.SlotKind.SHEX_PLUS) {
            return Addr.of(Reg.virt(RegFile.R, id, shape.contains(".64") ? 2 : 1), 0x10);
        }
        return null;
    }

    /** Legalizes {@code ins} in a one-block body and selects every instruction of it; the first error, or null. */
    private static String selectAll(InstructionSelector selector, Legalizer legalizer, Instr ins) {
        FunctionBody body = new FunctionBody();
        BasicBlock b = body.addBlock(".L_x_0");
        b.instrs().add(ins);
        try {
            legalizer.legalize(body);
            for (Instr i : b.instrs()) {
                SassLine line = selector.select(Legalizer.standIn(i), id -> ".L_x_0").line();
                if (line.op() == null) {
                    return "no SASS op for '" + line.text() + "'";
                }
            }
            return null;
        } catch (SelectionException e) {
            return e.getMessage().replaceAll("R\\d+", "R").replaceAll("P\\d+", "P").replaceAll("UR\\d+", "UR");
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static TreeMap<String, String> readGaps() throws IOException {
        TreeMap<String, String> known = new TreeMap<>();
        try (InputStream in = IselWalkTest.class.getResourceAsStream(GAPS)) {
            if (in == null) {
                return known;
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.lastIndexOf('\t');
                known.put(tab < 0 ? line : line.substring(0, tab), tab < 0 ? "" : line.substring(tab + 1));
            }
        }
        return known;
    }

    private static void writeGaps(Set<String> failures, TreeMap<String, String> known) throws IOException {
        StringBuilder sb = new StringBuilder("# Known gaps of IselWalkTest: target | matcher | instruction | error, tab,"
                + " reason. Rewritten by -Djptxas.iselwalk.update=true (reasons kept); the gate is exact.\n");
        for (String f : failures) {
            sb.append(f).append('\t').append(known.getOrDefault(f, "not yet triaged")).append('\n');
        }
        Files.writeString(Path.of("src/test/resources/org/jptxas/isel/select", GAPS), sb.toString());
    }
}
