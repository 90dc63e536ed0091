package org.jptxas.cli.generality;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;
import org.jptxas.cli.generality.FormKernels.Kernel;
import org.jptxas.cli.generality.ThreeWay.Compiled;
import org.jptxas.cli.generality.ThreeWay.Compiler;
import org.jptxas.cli.generality.ThreeWay.LegResult;
import org.jptxas.cli.generality.ThreeWay.Program;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.tables.ptx.PtxType;

/**
 * The instruction-form suite for one SM: every case of the {@link FormCatalog} (but the excluded families) rendered
 * as a kernel ({@link FormKernels}), checked by the front end, compiled by jptxas and ptxas 13, and run three ways
 * ({@link ThreeWay}). Each case ends agreeing or with the first failure found, by {@link Kind}.
 */
final class FormSuite {
    private FormSuite() {}

    /** The PTX version of the generated modules (ptxas 13's). */
    static final String VERSION = "9.0";

    /**
     * Cases whose result varied between two runs of the whole suite with the same code (SM and case key, with what
     * was seen): judged {@link Kind#FLAKY} whatever they give, so that the figures do not flicker. sm_90's
     * atom.add.f32 is a CAS loop in jptxas's code; once it differed from the interpreter in its 40-kernel module,
     * once it agreed, and it agrees alone. sm_90's red.release.add.f32 likewise: one run of many gave a NaN whose
     * payload depends on which thread's add came last (the emulator's FADD gives the canonical NaN, the interpreter
     * keeps the operand's). Exact: a listed case that the front end no longer accepts fails the gate as stale.
     */
    static final java.util.Set<String> FLAKY = java.util.Set.of("sm_90 atom.add.f32 r, [rd+0], r",
            "sm_90 red.release.add.f32 [rd], r");

    /** Kernels per module: compiled and loaded together, split one by one when the module fails. */
    static final int MODULE = 40;

    /** Why a case does not agree three ways, in the order they are checked. */
    enum Kind {
        HARNESS("the harness cannot set the case up"),
        PTXAS_REJECTS("ptxas 13 rejects a form the front end accepts"),
        NOT_SUPPORTED("jptxas: instruction not yet supported"),
        NO_MATCHER("jptxas: no matcher selects"),
        NO_ENCODING("jptxas: no encoding form"),
        COMPILE_ERROR("jptxas: other compile error"),
        CRASH("jptxas crashed"),
        INTERPRETER("the interpreter cannot run it"),
        INTERPRETER_CRASH("the interpreter crashed"),
        EMULATOR_CRASH("the emulator crashed"),
        JPTXAS_FAULT("the emulator faults or stops on jptxas's cubin"),
        JPTXAS_DIFFERS("jptxas's result differs from the interpreter's"),
        MODEL_DIFFERS("jptxas's and ptxas 13's cubins agree, the interpreter differs (its model of the instruction)"),
        JPTXAS_HAZARD("jptxas's cubin has a hazard on an executed path"),
        PTXAS_FAULT("the emulator faults or stops on ptxas's cubin"),
        PTXAS_DIFFERS("ptxas's result differs from the interpreter's"),
        FLAKY("results vary between runs (listed in FormSuite.FLAKY, counted as not agreeing)");

        final String what;

        Kind(String what) {
            this.what = what;
        }
    }

    /**
     * One case's end: {@code kind} null when all three legs agree; {@code jptxasAgrees} whether jptxas's cubin
     * computed the interpreter's results (whatever ptxas's did).
     */
    record Outcome(FormCase c, Kind kind, String detail, boolean jptxasAgrees) {
        Outcome(FormCase c, Kind kind, String detail) {
            this(c, kind, detail, false);
        }
    }

    /** One SM's run. */
    record Report(String sm, int cases, int accepted, int compiled, int jptxasAgrees, int agrees,
                  List<Outcome> outcomes) {
        List<Outcome> failures() {
            return outcomes.stream().filter(o -> o.kind() != null).toList();
        }

        Map<Kind, List<Outcome>> byKind() {
            Map<Kind, List<Outcome>> m = new TreeMap<>();
            for (Outcome o : failures()) {
                m.computeIfAbsent(o.kind(), k -> new ArrayList<>()).add(o);
            }
            return m;
        }

        String summary() {
            StringBuilder sb = new StringBuilder(String.format(
                    "%s: %d cases, %d accepted by the front end, %d compile, %d agree with the interpreter on jptxas's"
                            + " cubin, %d agree three ways", sm, cases, accepted, compiled, jptxasAgrees, agrees));
            byKind().forEach((k, l) -> sb.append("\n  ").append(l.size()).append(" ").append(k.what));
            return sb.toString();
        }
    }

    /** The cases the suite runs: the catalog without the excluded families. */
    static List<FormCase> included(List<FormCase> catalog) {
        return catalog.stream().filter(c -> FormCatalog.exclusionOf(c.opcode(), c.words()) == null).toList();
    }

    static String header(String sm) {
        return ".version " + VERSION + "\n.target " + sm + "\n.address_size 64\n\n";
    }

    /** A module of kernels, and the line range of each (1-based, inclusive) for diagnostics. */
    record Module(String text, List<Kernel> kernels, int[] firstLine, int[] lastLine) {
        static Module of(String sm, List<Kernel> kernels) {
            StringBuilder sb = new StringBuilder(header(sm));
            int[] first = new int[kernels.size()], last = new int[kernels.size()];
            int line = lines(sb);
            for (int i = 0; i < kernels.size(); i++) {
                Kernel k = kernels.get(i);
                first[i] = line + 1;
                sb.append(k.globals()).append(k.entry()).append('\n');
                line = lines(sb);
                last[i] = line;
            }
            return new Module(sb.toString(), kernels, first, last);
        }

        private static int lines(CharSequence s) {
            int n = 0;
            for (int i = 0; i < s.length(); i++) {
                if (s.charAt(i) == '\n') {
                    n++;
                }
            }
            return n;
        }

        int kernelAt(int line) {
            for (int i = 0; i < firstLine.length; i++) {
                if (line >= firstLine[i] && line <= lastLine[i]) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** Runs the suite for one SM with {@code parallelism} workers. */
    static Report run(String sm, List<FormCase> cases, Compiler jptxas, Compiler ptxas, int parallelism) {
        Outcome[] outcomes = new Outcome[cases.size()];
        boolean[] compiledOk = new boolean[cases.size()];
        Kernel[] kernels = new Kernel[cases.size()];
        List<Integer> rendered = new ArrayList<>();
        List<Integer> probed = new ArrayList<>();
        Kernel[] probes = new Kernel[cases.size()];
        for (int i = 0; i < cases.size(); i++) {
            try {
                kernels[i] = FormKernels.render(cases.get(i), "k" + i);
                rendered.add(i);
            } catch (FormKernels.Unrenderable e) {
                outcomes[i] = new Outcome(cases.get(i), Kind.HARNESS, e.getMessage());
                try {
                    probes[i] = FormKernels.probe(cases.get(i), "k" + i);
                    probed.add(i);
                } catch (FormKernels.Unrenderable e2) {
                    // counted as a harness failure whether or not the front end would accept it
                    probed.add(-1 - i);
                }
            }
        }
        List<Integer> accepted = Collections.synchronizedList(new ArrayList<>());
        List<Integer> harness = Collections.synchronizedList(new ArrayList<>());
        List<List<Integer>> chunks = chunks(rendered, MODULE);
        List<Integer> probedOk = probed.stream().filter(i -> i >= 0).toList();
        probed.stream().filter(i -> i < 0).forEach(i -> harness.add(-1 - i));
        List<List<Integer>> probeChunks = chunks(probedOk, MODULE);
        ForkJoinPool pool = new ForkJoinPool(parallelism);
        try {
            pool.submit(() -> chunks.parallelStream().forEach(ch -> accepted.addAll(frontEnd(sm, ch, kernels))))
                    .join();
            pool.submit(() -> probeChunks.parallelStream().forEach(ch -> harness.addAll(frontEnd(sm, ch, probes))))
                    .join();
            List<Integer> acc = new ArrayList<>(accepted);
            Collections.sort(acc);
            List<List<Integer>> runChunks = chunks(acc, MODULE);
            pool.submit(() -> runChunks.parallelStream().forEach(ch -> runChunk(sm, ch, cases, kernels, jptxas,
                    ptxas, outcomes, compiledOk))).join();
            int compiled = 0, jAgree = 0, agree = 0;
            List<Outcome> list = new ArrayList<>();
            for (int i : acc) {
                Outcome o = outcomes[i];
                list.add(o);
                if (o.kind() == null) {
                    agree++;
                }
                if (compiledOk[i]) {
                    compiled++;
                }
                if (o.jptxasAgrees()) {
                    jAgree++;
                }
            }
            List<Integer> h = new ArrayList<>(harness);
            Collections.sort(h);
            h.forEach(i -> list.add(outcomes[i]));
            return new Report(sm, cases.size(), acc.size() + h.size(), compiled, jAgree, agree, list);
        } finally {
            pool.shutdown();
        }
    }

    static List<List<Integer>> chunks(List<Integer> items, int size) {
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i += size) {
            out.add(new ArrayList<>(items.subList(i, Math.min(items.size(), i + size))));
        }
        return out;
    }

    private static List<Kernel> kernelsOf(List<Integer> ids, Kernel[] kernels) {
        return ids.stream().map(i -> kernels[i]).toList();
    }

    /** The kernels of a chunk the front end accepts for {@code sm}. */
    static List<Integer> frontEnd(String sm, List<Integer> chunk, Kernel[] kernels) {
        List<Integer> left = new ArrayList<>(chunk);
        PtxFrontEnd fe = TestFrontEnds.of(sm);
        while (!left.isEmpty()) {
            Module m = Module.of(sm, kernelsOf(left, kernels));
            try {
                fe.check("forms.ptx", m.text());
                return left;
            } catch (CompilationException e) {
                BitSet bad = new BitSet();
                boolean unplaced = false;
                for (Diagnostic d : e.diagnostics()) {
                    if (!d.isError()) {
                        continue;
                    }
                    int k = m.kernelAt(d.line());
                    if (k < 0) {
                        unplaced = true;
                    } else {
                        bad.set(k);
                    }
                }
                if (unplaced || bad.isEmpty()) {
                    List<Integer> ok = new ArrayList<>();
                    for (int i : left) {
                        try {
                            fe.check("forms.ptx", Module.of(sm, List.of(kernels[i])).text());
                            ok.add(i);
                        } catch (CompilationException e2) {
                            // rejected: not a form of this target
                        } catch (RuntimeException e2) {
                            ok.add(i); // a front-end crash is the compile leg's to report
                        }
                    }
                    return ok;
                }
                List<Integer> next = new ArrayList<>();
                for (int j = 0; j < left.size(); j++) {
                    if (!bad.get(j)) {
                        next.add(left.get(j));
                    }
                }
                left = next;
            } catch (RuntimeException e) {
                // a front-end crash: let each kernel's compile leg report it
                return left;
            }
        }
        return left;
    }

    /** Compiles a module, and when it fails each kernel alone: the cubin per kernel, or why not. */
    static Compiled[] compileEach(Compiler compiler, String sm, List<Kernel> ks) {
        Compiled[] out = new Compiled[ks.size()];
        Compiled all = compiler.compile("forms.ptx", Module.of(sm, ks).text(), sm);
        if (all.ok()) {
            java.util.Arrays.fill(out, all);
            return out;
        }
        if (ks.size() == 1) {
            out[0] = all;
            return out;
        }
        for (int i = 0; i < ks.size(); i++) {
            out[i] = compiler.compile("forms.ptx", Module.of(sm, List.of(ks.get(i))).text(), sm);
        }
        return out;
    }

    static void runChunk(String sm, List<Integer> ids, List<FormCase> cases, Kernel[] kernels, Compiler jptxas,
                         Compiler ptxas, Outcome[] outcomes, boolean[] compiledOk) {
        List<Kernel> ks = kernelsOf(ids, kernels);
        Compiled[] ours = compileEach(jptxas, sm, ks);
        Compiled[] theirs = compileEach(ptxas, sm, ks);
        Module whole = Module.of(sm, ks);
        Program interp = ThreeWay.interpreter("forms.ptx", whole.text());
        Map<Compiled, Program> loaded = new LinkedHashMap<>();
        for (int j = 0; j < ids.size(); j++) {
            int i = ids.get(j);
            FormCase c = cases.get(i);
            Kernel k = kernels[i];
            Program pi = interp.executor() != null ? interp
                    : ThreeWay.interpreter("forms.ptx", Module.of(sm, List.of(k)).text());
            Compiled o = ours[j], t = theirs[j];
            compiledOk[i] = o.ok();
            outcomes[i] = FLAKY.contains(sm + " " + c.key()) ? new Outcome(c, Kind.FLAKY, "listed in FormSuite.FLAKY")
                    : judge(sm, c, k, pi, o, t, loaded);
        }
    }

    static Kind compileKind(Compiled c) {
        if (c.crash() != null) {
            return Kind.CRASH;
        }
        String all = c.error() + " " + c.diagnostics().stream().map(Diagnostic::message).toList();
        if (all.contains("not yet supported") || all.contains("not supported")) {
            return Kind.NOT_SUPPORTED;
        }
        if (all.contains("matcher selects")) {
            return Kind.NO_MATCHER;
        }
        if (all.contains("encoding form") || all.contains("cannot encode") || all.contains("encoding for")) {
            return Kind.NO_ENCODING;
        }
        return Kind.COMPILE_ERROR;
    }

    static String firstError(Compiled c) {
        if (c.crash() != null) {
            java.io.StringWriter w = new java.io.StringWriter();
            c.crash().printStackTrace(new java.io.PrintWriter(w));
            String[] lines = w.toString().split("\n");
            return String.join(" | ", java.util.Arrays.copyOf(lines, Math.min(4, lines.length))).strip();
        }
        for (Diagnostic d : c.diagnostics()) {
            if (d.isError()) {
                return d.message();
            }
        }
        return String.valueOf(c.error()).lines().findFirst().orElse("");
    }

    /**
     * Judges one case: ptxas's verdict on the text first (a form ptxas rejects is the front end's leniency, and its
     * results mean nothing), then jptxas's compile, the interpreter, jptxas's cubin against the interpreter (with
     * ptxas's cubin telling a jptxas bug from a modelling difference), hazards, ptxas's cubin. {@code theirs} null:
     * no ptxas leg.
     */
    static Outcome judge(String sm, FormCase c, Kernel k, Program interp, Compiled ours, Compiled theirs,
                         Map<Compiled, Program> loaded) {
        if (theirs != null && !theirs.ok()) {
            return new Outcome(c, Kind.PTXAS_REJECTS, firstError(theirs));
        }
        if (!ours.ok()) {
            return new Outcome(c, compileKind(ours), firstError(ours));
        }
        LegResult a = ThreeWay.run(interp, sm, k);
        if (a.status() == LegResult.Status.FAULT && a.detail().startsWith("unimplemented instruction")) {
            return new Outcome(c, Kind.INTERPRETER, a.detail());
        }
        if (a.status() == LegResult.Status.FAILED) {
            return new Outcome(c, a.detail().startsWith("crashed") ? Kind.INTERPRETER_CRASH : Kind.INTERPRETER,
                    a.detail());
        }
        LegResult j = ThreeWay.run(program(loaded, sm, ours), sm, k);
        LegResult p = theirs != null ? ThreeWay.run(program(loaded, sm, theirs), sm, k) : null;
        String dj = differs(c, k, a, j);
        String dp = p == null ? null : differs(c, k, a, p);
        if (dj != null) {
            if (j.status() == LegResult.Status.FAILED && j.detail().startsWith("crashed")) {
                return new Outcome(c, Kind.EMULATOR_CRASH, dj);
            }
            boolean sameAsPtxas = p != null && p.completed() && j.completed() && differs(c, k, j, p) == null;
            if (sameAsPtxas) {
                return new Outcome(c, Kind.MODEL_DIFFERS, dj);
            }
            String third = p == null ? "no ptxas leg" : !p.completed() ? "ptxas's cubin: " + describe(p)
                    : dp == null ? "ptxas's cubin agrees with the interpreter" : "ptxas's cubin differs from both";
            return new Outcome(c, j.completed() ? Kind.JPTXAS_DIFFERS : Kind.JPTXAS_FAULT, dj + "; " + third);
        }
        if (!j.hazards().isEmpty()) {
            return new Outcome(c, Kind.JPTXAS_HAZARD, j.hazards().get(0), true);
        }
        if (p != null && dp != null) {
            return new Outcome(c, p.completed() ? Kind.PTXAS_DIFFERS : Kind.PTXAS_FAULT, dp, true);
        }
        return new Outcome(c, null, "", true);
    }

    /**
     * One case on one SM, the interpreter against jptxas's cubin only (regression tests run without ptxas): null when
     * they agree, else what went wrong.
     */
    static String judgeWithoutPtxas(String sm, FormCase c) {
        Kernel k;
        try {
            k = FormKernels.render(c, "k0");
        } catch (FormKernels.Unrenderable e) {
            return "unrenderable: " + e.getMessage();
        }
        String text = Module.of(sm, List.of(k)).text();
        Compiled ours = ThreeWay.JPTXAS.compile("forms.ptx", text, sm);
        Outcome o = judge(sm, c, k, ThreeWay.interpreter("forms.ptx", text), ours, null, new LinkedHashMap<>());
        return o.jptxasAgrees() ? null : o.kind().what + ": " + o.detail();
    }

    private static Program program(Map<Compiled, Program> loaded, String sm, Compiled c) {
        synchronized (loaded) {
            return loaded.computeIfAbsent(c, x -> ThreeWay.emulator(sm, x.cubin()));
        }
    }

    /** Why leg b's result is not leg a's (the interpreter's), or null when they agree. */
    static String differs(FormCase c, Kernel k, LegResult a, LegResult b) {
        return differs(Approximate.bound(c), false, Approximate.unspecifiedNaN(c), k, a, b);
    }

    /**
     * Why leg b's result is not leg a's, or null: {@code bound} the error allowed in floating-point destinations (null:
     * bit-exact), {@code anyNaN} whether NaNs of any payload count as equal.
     */
    static String differs(Approximate.Bound bound, boolean anyNaN, Kernel k, LegResult a, LegResult b) {
        return differs(bound, anyNaN, null, k, a, b);
    }

    /**
     * The same, {@code nanType} (when not null) the type whose NaNs count as equal in destinations of its size (a
     * bf16x2 result is stored as b32).
     */
    static String differs(Approximate.Bound bound, boolean anyNaN, PtxType nanType, Kernel k, LegResult a,
                          LegResult b) {
        if (!a.completed() || !b.completed()) {
            if (a.status() == b.status() && a.status() == LegResult.Status.FAULT
                    && faultClass(a.detail()).equals(faultClass(b.detail()))) {
                return null;
            }
            return "interpreter " + describe(a) + "; emulator " + describe(b);
        }
        ByteBuffer x = ByteBuffer.wrap(a.out()).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer y = ByteBuffer.wrap(b.out()).order(ByteOrder.LITTLE_ENDIAN);
        int differing = 0;
        String first = null;
        for (int t = 0; t < k.threads(); t++) {
            for (FormKernels.OutField f : k.fields()) {
                int at = t * k.outStride() + f.offset();
                long u = read(x, at, f.bytes()), v = read(y, at, f.bytes());
                long w = f.bytes() == 16 ? read(x, at + 8, 8) ^ read(y, at + 8, 8) : 0;
                boolean same = u == v && w == 0;
                if (!same && bound != null && f.what().startsWith("operand") && f.bytes() <= 8) {
                    same = Approximate.close(f.type(), u, v, bound);
                }
                if (!same && anyNaN && w == 0 && sameButNaNs(f.type(), u, v)) {
                    same = true;
                }
                if (!same && nanType != null && w == 0 && f.what().startsWith("operand")
                        && f.bytes() == nanType.bits() / 8 && sameButNaNs(nanType, u, v)) {
                    same = true;
                }
                if (!same) {
                    differing++;
                    if (first == null) {
                        first = String.format("thread %d %s (%s): interpreter %s, emulator %s", t, f.what(),
                                f.type().ptxName(), hex(u, f.bytes()), hex(v, f.bytes()));
                    }
                }
            }
        }
        return first == null ? null : differing + " values differ, first: " + first;
    }

    /** Whether bits of type t are a NaN; packed halves: whether either lane is (see {@link #sameButNaNs}). */
    static boolean isNaN(PtxType t, long bits) {
        return switch (t) {
            case F32 -> Float.isNaN(Float.intBitsToFloat((int) bits));
            case F64 -> Double.isNaN(Double.longBitsToDouble(bits));
            case F16 -> (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0;
            case BF16 -> (bits & 0x7f80) == 0x7f80 && (bits & 0x7f) != 0;
            case F16X2 -> isNaN(PtxType.F16, bits & 0xffff) || isNaN(PtxType.F16, (bits >>> 16) & 0xffff);
            case BF16X2 -> isNaN(PtxType.BF16, bits & 0xffff) || isNaN(PtxType.BF16, (bits >>> 16) & 0xffff);
            default -> false;
        };
    }

    /** Whether u and v of type t are equal but for NaNs' payloads and signs (packed halves lane by lane). */
    static boolean sameButNaNs(PtxType t, long u, long v) {
        return switch (t) {
            case F16X2 -> sameButNaNs(PtxType.F16, u & 0xffff, v & 0xffff)
                    && sameButNaNs(PtxType.F16, (u >>> 16) & 0xffff, (v >>> 16) & 0xffff);
            case BF16X2 -> sameButNaNs(PtxType.BF16, u & 0xffff, v & 0xffff)
                    && sameButNaNs(PtxType.BF16, (u >>> 16) & 0xffff, (v >>> 16) & 0xffff);
            default -> u == v || isNaN(t, u) && isNaN(t, v);
        };
    }

    static String faultClass(String detail) {
        int colon = detail == null ? -1 : detail.indexOf(':');
        return colon < 0 ? String.valueOf(detail) : detail.substring(0, colon);
    }

    static String describe(LegResult r) {
        return switch (r.status()) {
            case COMPLETED -> "completed";
            case FAULT -> "faulted (" + r.detail() + ")";
            case FAILED -> "failed (" + r.detail() + ")";
        };
    }

    static long read(ByteBuffer b, int at, int bytes) {
        return switch (bytes) {
            case 1 -> b.get(at) & 0xffL;
            case 2 -> b.getShort(at) & 0xffffL;
            case 4 -> b.getInt(at) & 0xffffffffL;
            default -> b.getLong(at);
        };
    }

    static String hex(long v, int bytes) {
        return String.format("0x%0" + Math.min(16, 2 * bytes) + "x", v);
    }

    /** Whether the PTX type of a field is floating point (for reports). */
    static boolean floating(PtxType t) {
        return t.typeClass() == PtxType.TypeClass.FLOAT;
    }

    static IntStream range(int n) {
        return IntStream.range(0, n);
    }
}
