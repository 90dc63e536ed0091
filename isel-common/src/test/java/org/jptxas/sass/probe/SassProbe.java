package org.jptxas.sass.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassForm;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.tables.sass.SassFormData;
import org.jptxas.testing.RepoRoot;
import org.jptxas.spi.TestTargets;

/**
 * The table probe: {@code derive} compiles the corpus and the probe kernels with ptxas 13 for sm_75 ... sm_90,
 * disassembles every cubin with nvdisasm 12.5, learns the encoding forms ({@link FormLearner}) and writes
 * {@code tables/.../sass/volta-base.json} plus one overlay per SM. See {@code tools/sass-probe/README.md}.
 */
public final class SassProbe {
    private SassProbe() {}

    public static void main(String[] args) throws IOException {
        String cmd = args.length == 0 ? "derive" : args[0];
        if (!List.of("derive", "fixture", "modifiers", "fields", "add", "confirm").contains(cmd)) {
            System.err.println("usage: SassProbe derive [sm,...] | add | fields | modifiers [sm,...] | fixture"
                    + " | confirm [sm,...] [--mnemonic=REGEX] [--fresh] [--widen]");
            System.exit(2);
        }
        if (cmd.equals("confirm")) {
            List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
            String mnemonics = rest.stream().filter(a -> a.startsWith("--mnemonic=")).findFirst()
                    .map(a -> a.substring("--mnemonic=".length())).orElse(null);
            rest.removeIf(a -> a.startsWith("--mnemonic="));
            boolean fresh = rest.remove("--fresh");
            boolean widen = rest.remove("--widen");
            ModifierConfirmation.run(rest.isEmpty() ? OracleSamples.SMS : List.of(rest.get(0).split(",")),
                    mnemonics == null ? null : java.util.regex.Pattern.compile(mnemonics), fresh, widen);
            return;
        }
        if (cmd.equals("modifiers")) {
            learnModifiers(args.length > 1 ? List.of(args[1].split(",")) : OracleSamples.SMS);
            return;
        }
        List<OracleSamples.Job> jobs = new ArrayList<>();
        if (cmd.equals("fields")) {
            // Only the relocatable probe kernels: the other facts come from the tables as written.
            OracleSamples.kernelJobs().stream().filter(OracleSamples.Job::relocatable).forEach(jobs::add);
        } else {
            jobs.addAll(OracleSamples.corpusJobs());
            jobs.addAll(OracleSamples.kernelJobs());
        }
        System.err.println("jobs: " + jobs.size());
        List<OracleSamples.Result> results = OracleSamples.run(jobs);
        Map<String, List<OracleSamples.Result>> bySm = new LinkedHashMap<>();
        for (OracleSamples.Result r : results) {
            if (r.error() != null) {
                System.err.println("skipped " + r.job() + ": " + r.error());
            }
            bySm.computeIfAbsent(r.job().sm(), k -> new ArrayList<>()).add(r);
        }
        if (cmd.equals("fixture")) {
            writeFixtures(bySm);
            return;
        }
        if (cmd.equals("fields")) {
            probeFields(bySm);
            learnModifiers(OracleSamples.SMS);
            return;
        }
        if (cmd.equals("add")) {
            List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
            String mnemonics = rest.stream().filter(a -> a.startsWith("--mnemonic=")).findFirst()
                    .map(a -> a.substring("--mnemonic=".length())).orElse(".*");
            rest.removeIf(a -> a.startsWith("--mnemonic="));
            addKernelForms(bySm, rest.isEmpty() ? OracleSamples.SMS : List.of(rest.get(0).split(",")),
                    java.util.regex.Pattern.compile(mnemonics));
            return;
        }
        Map<String, List<SassFormData>> tables = new LinkedHashMap<>();
        List<String> only = args.length > 1 ? List.of(args[1].split(",")) : OracleSamples.SMS;
        for (String sm : only) {
            List<Sample> samples = dedupe(OracleSamples.samples(bySm.getOrDefault(sm, List.of())));
            FormLearner learner = new FormLearner();
            List<SassFormData> forms = learner.learn(sm, samples);
            learner.log().forEach(System.err::println);
            System.err.println(sm + ": " + samples.size() + " distinct samples, " + forms.size() + " forms");
            tables.put(sm, forms);
        }
        if (only.size() == OracleSamples.SMS.size()) {
            write(tables);
            probeFields(bySm);
            learnModifiers(only);
        }
    }

    /**
     * The incremental derivation ({@code probe add}): learns forms from the probe kernels' samples alone, adds to the
     * written tables those whose text the tables cannot assemble to the same bits, and keeps an added form only while
     * every sample (corpus, suite and kernels) still decodes to nvdisasm's text. Cheaper than {@code derive} (the
     * learner and its nvdisasm checks see a few thousand samples per SM, not the corpus); the modifier enums stay as
     * they are. {@code add sm_75,sm_80} learns only those SMs and leaves the others' forms as they are;
     * {@code --mnemonic=REGEX} keeps only added forms whose mnemonic matches (the others are listed, not written).
     * The added forms' address offsets are widened ({@link FieldProber#widenOffsets}) and the forms are appended to
     * the SM overlays' text: every form already in the tables stays byte for byte where it is, so the reasoned
     * edits ({@code table-rules}) of the committed tables survive and a rerun of the rules corrects only new forms.
     */
    static void addKernelForms(Map<String, List<OracleSamples.Result>> bySm, List<String> only,
                               java.util.regex.Pattern mnemonics) throws IOException {
        Path dir = RepoRoot.find().orElseThrow().resolve("tables/src/main/resources/org/jptxas/tables/sass");
        Path kernels = RepoRoot.find().orElseThrow().resolve("tools/sass-probe/kernels");
        Map<String, List<SassFormData>> tables = new LinkedHashMap<>();
        for (String sm : OracleSamples.SMS) {
            if (!only.contains(sm)) {
                continue; // its forms stay as they are
            }
            List<OracleSamples.Result> results = bySm.getOrDefault(sm, List.of());
            List<Sample> all = dedupe(OracleSamples.samples(results));
            List<Sample> probe = dedupe(OracleSamples.samples(results.stream()
                    .filter(r -> r.job().ptx().startsWith(kernels)).toList()));
            FormLearner learner = new FormLearner();
            List<SassFormData> learned = learner.learn(sm, probe);
            List<SassFormData> forms = new ArrayList<>(readForms(dir, sm));
            // A learned form is new when one of its probe samples is text the tables cannot assemble to its bits: the
            // tables as the compiler reads them (learned forms, and the modifier enums composed onto them), so a
            // spelling a composed form already writes is not learned twice.
            SassAssembler asm = new SassAssembler(TestTargets.of(sm).isa());
            SassIsa old = new SassIsa(sm, forms); // the learned forms the trials below add to
            SassIsa fresh = new SassIsa(sm, learned);
            Map<SassForm, SassFormData> learnedOf = new IdentityHashMap<>();
            for (int i = 0; i < learned.size(); i++) {
                learnedOf.put(fresh.forms().get(i), learned.get(i));
            }
            LinkedHashSet<SassFormData> needed = new LinkedHashSet<>();
            for (Sample s : probe) {
                if (FormLearner.needsRelocation(s)
                        || !(fresh.decode(s.lo(), s.hi()) instanceof SassInstruction.Known k)) {
                    continue;
                }
                try {
                    long[] back = asm.assemble(s.text(), Control.fromHi(s.hi()), s.address(),
                            name -> s.labels().getOrDefault(name, -1L));
                    if (back[0] == s.lo() && (back[1] & ~(Control.HI_MASK | Control.OPEX_MASK)) == (s.hi() & ~(Control.HI_MASK | Control.OPEX_MASK))) {
                        continue;
                    }
                } catch (RuntimeException e) {
                    // the tables cannot write this text yet
                }
                SassFormData learnedForm = learnedOf.get(k.form());
                if (learnedForm != null) { // (not a zero-offset twin the ISA derived; its form's samples add it)
                    needed.add(learnedForm);
                }
            }
            List<SassFormData> added = new ArrayList<>();
            for (SassFormData f : needed) {
                if (mnemonics.matcher(f.mnemonic()).matches()) {
                    added.add(f);
                } else {
                    System.err.println(sm + " not taken (--mnemonic): " + f.mnemonic() + " " + f.pieces() + " "
                            + f.slots());
                }
            }
            // Check every sample (corpus, suite and kernels) with the added forms. An added form that misprints a
            // sample, or that a sample's word would take where the decoder then refuses it (a hideable predicate
            // holding PT: nvdisasm hides it, and a less specific form prints it right), first gets an exclusion for
            // the sample's default-valued fields, as the learner gives; a form still failing after that is dropped.
            Map<SassFormData, LinkedHashSet<String>> exclusions = new LinkedHashMap<>();
            for (int round = 0; ; round++) {
                List<SassFormData> withExclusions = new ArrayList<>();
                for (SassFormData f : added) {
                    LinkedHashSet<String> ex = exclusions.get(f);
                    withExclusions.add(ex == null ? f : FormLearner.withExclusions(f, ex));
                }
                List<SassFormData> trial = new ArrayList<>(forms);
                trial.addAll(withExclusions);
                SassIsa isa = new SassIsa(sm, trial);
                Map<SassForm, SassFormData> addedOf = new IdentityHashMap<>();
                for (int i = 0; i < added.size(); i++) {
                    addedOf.put(isa.forms().get(forms.size() + i), added.get(i));
                }
                Set<SassFormData> bad = new HashSet<>();
                Map<SassFormData, LinkedHashSet<String>> more = new LinkedHashMap<>();
                for (Sample s : all) {
                    if (FormLearner.needsRelocation(s)) {
                        continue;
                    }
                    SassInstruction inst = isa.decode(s.lo(), s.hi());
                    if (inst instanceof SassInstruction.Known
                            && SassPrinter.text(inst, s.address(),
                                    addr -> FormLearner.labelAt(s.labels(), addr)).equals(s.text())) {
                        continue;
                    }
                    if (!(inst instanceof SassInstruction.Known)) {
                        if (!(old.decode(s.lo(), s.hi()) instanceof SassInstruction.Known)) {
                            continue; // the tables did not explain it before either
                        }
                        inst = isa.decodeForProbe(s.lo(), s.hi());
                    }
                    SassFormData culprit = inst instanceof SassInstruction.Known k
                            ? addedOf.get(k.form()) : null;
                    if (culprit == null) {
                        int key = FormLearner.keyOf(s.lo(), s.hi());
                        added.stream().filter(f -> f.key() == key).forEach(bad::add); // a rival made it ambiguous
                        continue;
                    }
                    String ex = FormLearner.exclusionFor((SassInstruction.Known) inst);
                    if (ex == null || round >= 4) {
                        bad.add(culprit);
                    } else {
                        more.computeIfAbsent(culprit, x -> new LinkedHashSet<>()).add(ex);
                    }
                }
                if (bad.isEmpty() && more.isEmpty()) {
                    added = withExclusions;
                    break;
                }
                added.removeAll(bad);
                more.forEach((f, ex) -> {
                    if (!bad.contains(f)) {
                        exclusions.computeIfAbsent(f, x -> new LinkedHashSet<>()).addAll(ex);
                    }
                });
            }
            added.forEach(f -> System.err.println(sm + " added: " + f.mnemonic() + " " + f.pieces() + " " + f.slots()));
            System.err.println(sm + ": " + learned.size() + " forms learned from " + probe.size()
                    + " probe kernel samples, " + needed.size() + " needed, " + added.size() + " added");
            FieldProber prober = new FieldProber(sm);
            tables.put(sm, prober.widenOffsets(added));
            prober.log().forEach(System.err::println);
        }
        for (Map.Entry<String, List<SassFormData>> e : tables.entrySet()) {
            appendForms(overlayDir(e.getKey()).resolve(e.getKey().replace("_", "") + ".json"), e.getValue());
        }
    }

    /** Appends {@code forms} to a table file's form list, one compact entry per line, leaving its text as it is. */
    static void appendForms(Path file, List<SassFormData> forms) throws IOException {
        if (forms.isEmpty()) {
            return;
        }
        String text = Files.readString(file);
        String end = "\n]}\n";
        if (!text.endsWith(end)) {
            throw new IOException(file + " does not end with the form list's closing line");
        }
        ObjectMapper mapper = new ObjectMapper();
        StringBuilder sb = new StringBuilder(text.substring(0, text.length() - end.length()));
        boolean first = text.substring(0, text.length() - end.length()).endsWith("[");
        for (SassFormData f : forms) {
            sb.append(first ? "\n" : ",\n").append(mapper.writeValueAsString(f));
            first = false;
        }
        Files.writeString(file, sb.append(end).toString());
    }

    /**
     * Widens address offset fields and derives the relocated forms ({@link FieldProber}) on the tables as written,
     * and writes them again.
     */
    static void probeFields(Map<String, List<OracleSamples.Result>> bySm) throws IOException {
        Path dir = RepoRoot.find().orElseThrow().resolve("tables/src/main/resources/org/jptxas/tables/sass");
        Map<String, List<SassFormData>> tables = new LinkedHashMap<>();
        for (String sm : OracleSamples.SMS) {
            FieldProber prober = new FieldProber(sm);
            List<Sample> relocated = OracleSamples.samples(bySm.getOrDefault(sm, List.of()).stream()
                    .filter(r -> r.job().relocatable()).toList());
            List<SassFormData> forms = prober.relocatedForms(prober.widenOffsets(readForms(dir, sm)), relocated);
            prober.log().forEach(System.err::println);
            tables.put(sm, forms);
        }
        write(tables);
    }

    /**
     * Learns the independent modifier enums of each SM from the bundled (just written) form tables
     * ({@link ModifierLearner}) and, for all SMs, writes {@code sass/modifiers-base.json} plus one overlay per SM.
     */
    static void learnModifiers(List<String> sms) throws IOException {
        Path dir = RepoRoot.find().orElseThrow().resolve("tables/src/main/resources/org/jptxas/tables/sass");
        Map<String, List<org.jptxas.tables.sass.SassModifierClass>> perSm = new LinkedHashMap<>();
        for (String sm : sms) {
            List<SassFormData> forms = readForms(dir, sm);
            ModifierLearner learner = new ModifierLearner(sm, forms);
            List<org.jptxas.tables.sass.SassModifierClass> classes = new ArrayList<>(learner.learn());
            // The memory opcodes' enums come from tools/sass-probe/memory-modifiers (raw-mode field probes, marked
            // trailing, and the lazy hint classes); keep them and drop what the learner found for those classes.
            Path overlay = overlayDir(sm).resolve("modifiers-" + sm.replace("_", "") + ".json");
            List<org.jptxas.tables.sass.SassModifierClass> probed = new ObjectMapper()
                    .readValue(overlay.toFile(), org.jptxas.tables.sass.SassModifierTable.class).classes().stream()
                    .filter(c -> c.trailing() || c.lazy()).toList();
            Set<String> probedKeys = new HashSet<>();
            probed.forEach(c -> probedKeys.add(c.mnemonic() + "/" + c.key()));
            classes.removeIf(c -> probedKeys.contains(c.mnemonic() + "/" + c.key()));
            classes.addAll(probed);
            learner.log().forEach(System.err::println);
            System.err.println(sm + ": " + classes.size() + " modifier classes, "
                    + classes.stream().mapToInt(c -> c.groups().size()).sum() + " enums");
            perSm.put(sm, classes);
        }
        if (sms.size() != OracleSamples.SMS.size()) {
            return;
        }
        ObjectMapper mapper = new ObjectMapper();
        Map<String, Integer> count = new HashMap<>();
        for (List<org.jptxas.tables.sass.SassModifierClass> cs : perSm.values()) {
            for (var c : cs) {
                count.merge(mapper.writeValueAsString(c), 1, Integer::sum);
            }
        }
        List<org.jptxas.tables.sass.SassModifierClass> base = new ArrayList<>();
        Set<String> inBase = new HashSet<>();
        for (var c : perSm.values().iterator().next()) {
            String k = mapper.writeValueAsString(c);
            if (count.get(k) == perSm.size() && inBase.add(k)) {
                base.add(c);
            }
        }
        Set<String> baseIds = new HashSet<>();
        base.forEach(c -> baseIds.add(c.mnemonic() + "/" + c.key()));
        String provenance = "isel-common SassProbe modifiers: enums from ptxas 13.0 forms, named and confirmed by nvdisasm 12.5";
        writeModifiers(dir.resolve("modifiers-base.json"), "base", provenance, base, List.of(), mapper);
        for (Map.Entry<String, List<org.jptxas.tables.sass.SassModifierClass>> e : perSm.entrySet()) {
            List<org.jptxas.tables.sass.SassModifierClass> overlay = new ArrayList<>();
            for (var c : e.getValue()) {
                if (!inBase.contains(mapper.writeValueAsString(c))) {
                    overlay.add(c);
                }
            }
            // A base class this SM lacks must not apply to it: nothing to override with, so such classes stay
            // out of the base (the base holds only classes every SM has identically).
            // the operand decorations come from tools/sass-probe/operand-decorations: kept as they are
            Path file = overlayDir(e.getKey()).resolve("modifiers-" + e.getKey().replace("_", "") + ".json");
            List<org.jptxas.tables.sass.SassDecorationClass> decorations = mapper
                    .readValue(file.toFile(), org.jptxas.tables.sass.SassModifierTable.class).decorations();
            writeModifiers(file, e.getKey(), provenance, overlay, decorations, mapper);
        }
    }

    /** The family base (in {@code dir}, the tables module's folder) and {@code sm}'s overlay (in its backend's). */
    static List<SassFormData> readForms(Path dir, String sm) throws IOException {
        List<SassFormData> all = new ArrayList<>();
        for (Path file : List.of(dir.resolve("volta-base.json"), overlayDir(sm).resolve(sm.replace("_", "") + ".json"))) {
            try (java.io.InputStream in = Files.newInputStream(file)) { // the loader's strictness and defaults
                all.addAll(org.jptxas.tables.TableLoader.read(file.toString(), in,
                        org.jptxas.tables.sass.SassFormTable.class).forms());
            }
        }
        return all;
    }

    /** The folder of {@code sm}'s overlays: {@code sass/} in its backend's resources (the backend that serves it). */
    static Path overlayDir(String sm) {
        return org.jptxas.spi.TestTargets.resourceFolder(sm).resolve("sass");
    }

    static void writeModifiers(Path file, String scope, String provenance,
                                       List<org.jptxas.tables.sass.SassModifierClass> classes,
                                       List<org.jptxas.tables.sass.SassDecorationClass> decorations,
                                       ObjectMapper mapper) throws IOException {
        writeModifiers(file, scope, provenance, classes, decorations, mapper, true);
    }

    /** As above; {@code sort}: by mnemonic and key, else in the given order (a confirmation keeps the file's). */
    static void writeModifiers(Path file, String scope, String provenance,
                               List<org.jptxas.tables.sass.SassModifierClass> classes,
                               List<org.jptxas.tables.sass.SassDecorationClass> decorations,
                               ObjectMapper mapper, boolean sort) throws IOException {
        List<org.jptxas.tables.sass.SassModifierClass> sorted = new ArrayList<>(classes);
        if (sort) {
            sorted.sort(java.util.Comparator.comparing(org.jptxas.tables.sass.SassModifierClass::mnemonic)
                    .thenComparingInt(org.jptxas.tables.sass.SassModifierClass::key));
        }
        StringBuilder sb = new StringBuilder();
        sb.append("{\"format\": \"volta-128-modifiers\", \"scope\": ").append(mapper.writeValueAsString(scope))
                .append(", \"derivedWith\": ").append(mapper.writeValueAsString(provenance)).append(",\n\"classes\": [\n");
        for (int i = 0; i < sorted.size(); i++) {
            sb.append(mapper.writeValueAsString(sorted.get(i))).append(i + 1 < sorted.size() ? ",\n" : "\n");
        }
        sb.append("],\n\"decorations\": [\n");
        for (int i = 0; i < decorations.size(); i++) {
            sb.append(mapper.writeValueAsString(decorations.get(i))).append(i + 1 < decorations.size() ? ",\n" : "\n");
        }
        sb.append("]}\n");
        Files.writeString(file, sb.toString());
    }

    /**
     * Writes the small oracle fixture the fast unit tests use: per SM, up to {@value #FIXTURE_SIZE} words (one per
     * dispatch key first, then one per form) as raw bytes, and nvdisasm's raw-mode listing of them.
     */
    static void writeFixtures(Map<String, List<OracleSamples.Result>> bySm) throws IOException {
        Path dir = RepoRoot.find().orElseThrow().resolve("isel-common/src/test/resources/org/jptxas/sass/fixture");
        Files.createDirectories(dir);
        for (String sm : OracleSamples.SMS) {
            List<Sample> samples = dedupe(OracleSamples.samples(bySm.getOrDefault(sm, List.of())));
            SassIsa isa = TestTargets.of(sm).isa();
            Map<Integer, Sample> perKey = new LinkedHashMap<>();
            Map<Object, Sample> perForm = new LinkedHashMap<>();
            for (Sample s : samples) {
                if (FormLearner.needsRelocation(s)) {
                    continue;
                }
                SassInstruction inst = isa.decode(s.lo(), s.hi());
                if (inst instanceof SassInstruction.Known k) {
                    perKey.putIfAbsent(k.form().key(), s);
                    perForm.putIfAbsent(k.form(), s);
                }
            }
            LinkedHashSet<Sample> chosen = new LinkedHashSet<>(perKey.values());
            List<Sample> rest = new ArrayList<>(perForm.values());
            java.util.Collections.shuffle(rest, new java.util.Random(42));
            for (Sample s : rest) {
                if (chosen.size() >= FIXTURE_SIZE) {
                    break;
                }
                chosen.add(s);
            }
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            for (Sample s : chosen) {
                for (long w : new long[] {s.lo(), s.hi()}) {
                    for (int i = 0; i < 8; i++) {
                        bytes.write((int) (w >>> (8 * i)) & 0xff);
                    }
                }
            }
            String name = sm.replace("_", "");
            String oracleSm = sm.equals("sm_90") ? "sm_90a" : sm;
            String listing = org.jptxas.sass.oracle.OracleListings.run(bytes.toByteArray(),
                    List.of("-b", org.jptxas.sass.oracle.OracleListings.binaryName(oracleSm), "-hex"));
            Files.write(dir.resolve(name + ".bin"), bytes.toByteArray());
            Files.writeString(dir.resolve(name + ".nvdisasm.txt"), listing);
            System.err.println(sm + ": fixture of " + chosen.size() + " instructions");
        }
    }

    static final int FIXTURE_SIZE = 400;

    /** Drops repeats (same word without control bits, same text, same address when a label is involved). */
    static List<Sample> dedupe(List<Sample> samples) {
        Set<String> seen = new HashSet<>();
        List<Sample> out = new ArrayList<>();
        for (Sample s : samples) {
            String k = s.lo() + "|" + (s.hi() & ~Control.HI_MASK) + "|" + s.text()
                    + (s.text().indexOf('`') >= 0 ? "|" + s.address() + s.labels() : "");
            if (seen.add(k)) {
                out.add(s);
            }
        }
        return out;
    }

    /** Forms identical in every SM go to the base; the rest to the SM overlays. */
    static void write(Map<String, List<SassFormData>> tables) throws IOException {
        Map<String, Integer> count = new HashMap<>();
        for (List<SassFormData> forms : tables.values()) {
            for (SassFormData f : forms) {
                count.merge((FormLearner.identity(f) + f.exclude()), 1, Integer::sum);
            }
        }
        int n = tables.size();
        List<SassFormData> base = new ArrayList<>();
        Set<String> inBase = new HashSet<>();
        for (SassFormData f : tables.values().iterator().next()) {
            if (count.get((FormLearner.identity(f) + f.exclude())) == n && inBase.add((FormLearner.identity(f) + f.exclude()))) {
                base.add(f);
            }
        }
        Path dir = RepoRoot.find().orElseThrow().resolve("tables/src/main/resources/org/jptxas/tables/sass");
        Files.createDirectories(dir);
        String provenance = "isel-common SassProbe derive: ptxas 13.0 output, nvdisasm 12.5 text";
        writeTable(dir.resolve("volta-base.json"), "base", provenance, base);
        for (Map.Entry<String, List<SassFormData>> e : tables.entrySet()) {
            List<SassFormData> overlay = new ArrayList<>();
            for (SassFormData f : e.getValue()) {
                if (!inBase.contains((FormLearner.identity(f) + f.exclude()))) {
                    overlay.add(f);
                }
            }
            writeTable(overlayDir(e.getKey()).resolve(e.getKey().replace("_", "") + ".json"), e.getKey(), provenance, overlay);
            System.err.println(e.getKey() + ": " + (e.getValue().size() - overlay.size()) + " base forms + "
                    + overlay.size() + " overlay forms");
        }
    }

    private static void writeTable(Path file, String scope, String provenance, List<SassFormData> forms)
            throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        // the unprinted descriptor fields are facts about the SM, not learned from samples: kept as the file has them
        Object descriptorFields = Files.exists(file) && mapper.readTree(file.toFile()).has("descriptorFields")
                ? mapper.readTree(file.toFile()).get("descriptorFields") : Map.of();
        StringBuilder sb = new StringBuilder();
        sb.append("{\"format\": \"volta-128\", \"scope\": ").append(mapper.writeValueAsString(scope))
                .append(", \"derivedWith\": ").append(mapper.writeValueAsString(provenance))
                .append(", \"descriptorFields\": ").append(mapper.writeValueAsString(descriptorFields))
                .append(",\n\"forms\": [\n");
        for (int i = 0; i < forms.size(); i++) {
            sb.append(mapper.writeValueAsString(forms.get(i))).append(i + 1 < forms.size() ? ",\n" : "\n");
        }
        sb.append("]}\n");
        Files.writeString(file, sb.toString());
    }
}
