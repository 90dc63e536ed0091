package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Relocation;
import org.jptxas.cubin.Relocations;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.SectionType;
import org.jptxas.cubin.Symbol;
import org.jptxas.cubin.info.Attribute;
import org.jptxas.cubin.info.NvInfo;
import org.jptxas.cubin.tables.CubinTables;
import org.jptxas.spi.CompileOptions;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * The cubins jptxas writes for the suite's kernels with true calls carry what ptxas 13 writes for the same PTX:
 * the same sections (names, types, flags, links, alignment), the same symbols (names, bindings, types, CUDA flags,
 * sections), the same .nv.info records in the same order with the same values, the same .debug_frame structure
 * (CIEs byte for byte, one FDE per function and inner function) and the same relocations (section, symbol, type).
 * Allowed to differ: what follows from the code itself (code bytes and sizes, register counts, frame and stack
 * sizes, instruction offset lists, offsets of inner functions, call-frame programs).
 */
class CallCubinStructureTest {
    static final List<String> KERNELS = CallsEndToEndTest.CALL_KERNELS;
    static final List<String> ARCHES = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    /** Known differences, by "kernel arch", with why. Exact: one that no longer differs fails as stale. */
    static final Map<String, String> KNOWN = known();

    private static Map<String, String> known() {
        Map<String, String> m = new TreeMap<>();
        for (String arch : ARCHES) {
            m.put("call_func " + arch, "ptxas's .debug_frame CIE names R4 as the return address of one of call_func's "
                    + "callees (its internal convention places a return address in any free register), jptxas's "
                    + "internal subroutines return through the pair above their arguments and results (R6/R7)");
            m.put("call_wide " + arch, "ptxas's .debug_frame CIE names the register its internal convention returns "
                    + "call_wide's mix through (R18 to R22, whichever is free), jptxas's returns through the pair above "
                    + "the twenty argument words (R24/R25)");
            m.put("call_diverge " + arch, "ptxas writes COOP_GROUP_MASK_REGIDS and COOP_GROUP_INSTR_OFFSETS (code 40) "
                    + "for the kernel; jptxas's cubin writer writes neither yet");
        }
        return Map.copyOf(m);
    }

    /** .nv.info attributes whose values follow from the code: register counts, frame and stack sizes, offsets. */
    static boolean codeDerived(int code) {
        String name = CubinTables.eiattr(code).map(e -> e.name()).orElse("");
        return name.equals("REGCOUNT") || name.equals("FRAME_SIZE") || name.endsWith("STACK_SIZE")
                || name.endsWith("OFFSETS");
    }

    /** Sections whose size does not follow from the code. */
    static boolean sizeFixed(String section) {
        return section.startsWith(".nv.constant") || section.equals(".nv.callgraph") || section.equals(".nv.rel.action")
                || section.equals(".note.nv.cuinfo") || section.startsWith(".nv.shared") || section.equals(".nv.compat");
    }

    static List<String> structure(Cubin c) {
        List<String> rows = new ArrayList<>();
        rows.add("header abi=" + c.header().abiVersion() + " relocatable=" + c.header().relocatable());
        for (Section s : c.sections()) {
            String link = s.link() > 0 && s.link() < c.sections().size() ? c.section(s.link()).name() : "" + s.link();
            long info = s.info();
            String infoText;
            if ((s.flags() & Section.SHF_INFO_LINK) != 0 || s.type() == SectionType.REL || s.type() == SectionType.RELA) {
                infoText = info > 0 && info < c.sections().size() ? c.section((int) info).name() : "" + info;
            } else if (s.isText()) {
                long symbol = info & 0xffffff; // the high byte is the register count below sm_90
                infoText = symbol < c.symbols().size() ? c.symbols().get((int) symbol).name() : "" + symbol;
            } else if (s.type() == SectionType.SYMTAB) {
                infoText = "first-global";
            } else {
                infoText = "" + info;
            }
            rows.add("section " + s.name() + " type=" + Integer.toHexString(s.type()) + " flags=" + Long.toHexString(s.flags())
                    + " link=" + link + " info=" + infoText + " align=" + s.addralign() + " entsize=" + s.entsize()
                    + (sizeFixed(s.name()) ? " size=" + s.size() : ""));
        }
        for (Symbol s : c.symbols()) {
            String section = s.shndx() > 0 && s.shndx() < c.sections().size() ? c.section(s.shndx()).name() : "" + s.shndx();
            boolean codeValue = s.symbolType() == Symbol.STT_FUNC;
            rows.add("symbol " + s.name() + " info=" + s.info() + " other=" + s.other() + " in=" + section
                    + (codeValue ? "" : " value=" + s.value() + " size=" + s.size()));
        }
        int symtab = c.symtabIndex();
        rows.add("first global symbol " + (symtab < 0 ? -1 : c.section(symtab).info()));
        for (Section s : c.sections()) {
            if (s.name().startsWith(".nv.info") || s.name().equals(".nv.compat")) {
                for (Attribute a : NvInfo.decode(s.data(), s.name())) {
                    rows.add(s.name() + " " + (codeDerived(a.code()) ? a.getClass().getSimpleName() + " code=" + a.code()
                            + symbolOf(a) : a.toString()));
                }
            }
            if (s.type() == SectionType.REL || s.type() == SectionType.RELA) {
                // Sorted: their order follows the code's (ptxas lists them from the last instruction to the first).
                List<String> relocations = new ArrayList<>();
                for (Relocation r : Relocations.decode(s)) {
                    relocations.add(s.name() + " " + c.symbols().get(r.symbol()).name() + " " + r.typeName());
                }
                if (s.name().startsWith(".rel.text.") || s.name().startsWith(".rela.text.")) {
                    java.util.Collections.sort(relocations);
                }
                rows.addAll(relocations);
            }
        }
        c.section(".debug_frame").ifPresent(s -> rows.addAll(debugFrame(s.data())));
        c.section(".nv.callgraph").ifPresent(s -> rows.add(".nv.callgraph " + pairs(c, s.data(), false)));
        c.section(".nv.prototype").ifPresent(s -> rows.add(".nv.prototype " + pairs(c, s.data(), true)));
        return rows;
    }

    /**
     * The (symbol, symbol) pairs of .nv.callgraph, or the (symbol, type string) pairs of .nv.prototype, by name,
     * in the section's order.
     */
    private static String pairs(Cubin c, byte[] b, boolean prototype) {
        byte[] strtab = c.section(".strtab").map(Section::data).orElse(new byte[0]);
        java.nio.ByteBuffer w = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        List<String> out = new ArrayList<>();
        while (w.remaining() >= 8) {
            int first = w.getInt();
            int second = w.getInt();
            String a = first > 0 && first < c.symbols().size() ? c.symbols().get(first).name() : "" + first;
            String z;
            if (prototype) {
                int end = second;
                while (end >= 0 && end < strtab.length && strtab[end] != 0) {
                    end++;
                }
                z = second >= 0 && second <= end ? new String(strtab, second, end - second,
                        java.nio.charset.StandardCharsets.ISO_8859_1) : "" + second;
            } else {
                z = second > 0 && second < c.symbols().size() ? c.symbols().get(second).name() : "" + second;
            }
            out.add("<" + a + "," + z + ">");
        }
        return String.join(" ", out);
    }

    private static String symbolOf(Attribute a) {
        if (a instanceof Attribute.SymbolValue sv) {
            return " symbol=" + sv.symbol();
        }
        if (a instanceof Attribute.Words w && w.words().length == 2 && a.code() == 0x23) {
            return " symbol=" + w.words()[0];
        }
        return "";
    }

    /** CIEs byte for byte (padding aside), FDEs as entries. */
    static List<String> debugFrame(byte[] b) {
        List<String> rows = new ArrayList<>();
        int at = 0;
        while (at + 12 <= b.length) {
            long length = (b[at + 4] & 0xffL) | (b[at + 5] & 0xffL) << 8 | (b[at + 6] & 0xffL) << 16 | (b[at + 7] & 0xffL) << 24;
            int body = at + 12;
            int end = (int) Math.min(b.length, body + length);
            boolean cie = end - body >= 8 && java.util.Arrays.equals(java.util.Arrays.copyOfRange(b, body, body + 8),
                    new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});
            rows.add(cie ? ".debug_frame CIE " + HexFormat.of().formatHex(java.util.Arrays.copyOfRange(b, body, end))
                    .replaceAll("(00)+$", "") : ".debug_frame FDE");
            at = end;
        }
        return rows;
    }

    /** How the structure of {@code ours} differs from ptxas's cubin {@code theirs}; null when it does not. */
    private static String difference(byte[] theirs, byte[] ours) {
        List<String> expected = structure(Cubin.read(theirs));
        List<String> actual = structure(Cubin.read(ours));
        if (expected.equals(actual)) {
            return null;
        }
        List<String> diff = new ArrayList<>();
        expected.stream().filter(r -> !actual.contains(r)).forEach(r -> diff.add("- " + r));
        actual.stream().filter(r -> !expected.contains(r)).forEach(r -> diff.add("+ " + r));
        return diff.isEmpty() ? "order differs: " + firstDifference(expected, actual) : String.join("\n    ", diff);
    }

    private static String firstDifference(List<String> expected, List<String> actual) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                return "ptxas " + expected.get(i) + ", jptxas " + actual.get(i);
            }
        }
        return "lengths " + expected.size() + ", " + actual.size();
    }

    /** The {@code -c} inputs compared with ptxas's relocatable output (cli test resources {@code link/}). */
    static final List<String> RELOCATABLE = List.of("caller.ptx", "extern_calls.ptx", "extern_types.ptx");

    /**
     * Relocatable objects calling {@code .extern} functions carry what ptxas 13 -c writes: an undefined symbol per
     * called function in declaration order, EXTERNS and CRS_STACK_SIZE in the caller's .nv.info, the calls in
     * .nv.callgraph after its first marker, a {@code .nv.prototype} type string per function (with ptxas 13's
     * system-call ABI for malloc/free from sm_80 on), and the relocation sections in ptxas's order.
     */
    @Test
    void relocatableExternCallsCarryPtxasStructure(@TempDir java.nio.file.Path dir) throws Exception {
        org.jptxas.spi.BackendRegistry registry = org.jptxas.spi.BackendRegistry.discover(
                CallCubinStructureTest.class.getClassLoader());
        Map<String, String> differences = new TreeMap<>();
        int compared = 0;
        for (String name : RELOCATABLE) {
            String text;
            try (java.io.InputStream in = CallCubinStructureTest.class.getResourceAsStream("/link/" + name)) {
                text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
            }
            for (String arch : ARCHES) {
                java.nio.file.Path ptx = dir.resolve(arch + "-" + name);
                Files.writeString(ptx, text.replace(".target sm_75", ".target " + arch),
                        java.nio.charset.StandardCharsets.ISO_8859_1);
                OracleCubins.Compiled p = OracleCubins.ptxas13(ptx, arch, "-c");
                org.junit.jupiter.api.Assertions.assertTrue(p.ok(), p.diagnostics());
                byte[] ours = OracleAcceptanceTest.compilePtx(registry, ptx, arch, true, false, true).cubin();
                compared++;
                String diff = difference(Files.readAllBytes(p.cubin().orElseThrow()), ours);
                if (diff != null) {
                    differences.put(name + " " + arch, diff);
                }
            }
        }
        System.out.printf("relocatable extern calls: %d of %d (file, SM) objects carry ptxas's structure%n",
                compared - differences.size(), compared);
        differences.forEach((key, d) -> System.out.println("  " + key + ":\n    " + d));
        assertEquals(Map.of(), differences);
        assertEquals(RELOCATABLE.size() * ARCHES.size(), compared);
        Figures.check("calls.structure.relocatable", compared - differences.size());
    }

    /**
     * A recursive internal function under {@code -c} is a function of its own, as ptxas 13 -c makes it: a local
     * symbol before its own code section, called by symbol from the kernel and by {@code CALL.REL} from itself
     * (the suite's call_recursive kernel).
     */
    @Test
    void relocatableRecursiveFunctionCarriesPtxasStructure() throws Exception {
        org.jptxas.spi.BackendRegistry registry = org.jptxas.spi.BackendRegistry.discover(
                CallCubinStructureTest.class.getClassLoader());
        KernelCase k = KernelSuite.byName("call_recursive").orElseThrow();
        Map<String, String> differences = new TreeMap<>();
        for (String arch : ARCHES) {
            OracleCubins.Compiled p = OracleCubins.ptxas13(k.ptx(), arch, "-c");
            org.junit.jupiter.api.Assertions.assertTrue(p.ok(), p.diagnostics());
            byte[] ours = OracleAcceptanceTest.compilePtx(registry, k.ptx(), arch, true, false, true).cubin();
            // jptxas lays the functions out in definition order, ptxas here in the reverse (and elsewhere not)
            List<String> theirs = unordered(structure(Cubin.read(Files.readAllBytes(p.cubin().orElseThrow()))), k.name());
            List<String> mine = unordered(structure(Cubin.read(ours)), k.name());
            if (!theirs.equals(mine)) {
                List<String> diff = new ArrayList<>();
                theirs.stream().filter(r -> !mine.contains(r)).forEach(r -> diff.add("- " + r));
                mine.stream().filter(r -> !theirs.contains(r)).forEach(r -> diff.add("+ " + r));
                differences.put(arch, String.join("\n    ", diff));
            }
            org.junit.jupiter.api.Assertions.assertTrue(Cubin.read(ours).symbols().stream().noneMatch(
                    s -> s.name().startsWith("$")), arch + ": a copy in the kernel's section");
        }
        differences.forEach((key, d) -> System.out.println("  call_recursive -c " + key + ":\n    " + d));
        assertEquals(Map.of(), differences);
    }

    /**
     * Structure rows sorted, the pairs of .nv.callgraph too, symbol indices in .nv.info records left out, and a
     * device function's CRS_STACK_SIZE (code 30), whose presence follows its code (a BSSY, which jptxas's code for
     * a recursive function has where ptxas's may not).
     */
    private static List<String> unordered(List<String> rows, String kernel) {
        List<String> out = new ArrayList<>();
        for (String r : rows) {
            if (r.startsWith(".nv.callgraph ")) {
                List<String> pairs = new ArrayList<>(List.of(r.substring(".nv.callgraph ".length()).split(" ")));
                java.util.Collections.sort(pairs);
                r = ".nv.callgraph " + String.join(" ", pairs);
            }
            if (!r.matches("\\.nv\\.info\\.\\S+ Words code=30") || r.startsWith(".nv.info." + kernel + " ")) {
                out.add(r.replaceAll(" symbol=\\d+", ""));
            }
        }
        java.util.Collections.sort(out);
        return out;
    }

    /**
     * The CUDA 12 form (ABI v7) of the two objects of {@code link/} (a kernel calling an {@code .extern .func}, the
     * object defining it) carries the prototypes and EXTERNS and links with nvlink 12.5 on every SM.
     */
    @Test
    void cuda12ObjectsWithExternCallsLinkWithNvlink125(@TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path nvlink = org.jptxas.testing.Oracles.assumeNvlink();
        org.jptxas.spi.BackendRegistry registry = org.jptxas.spi.BackendRegistry.discover(
                CallCubinStructureTest.class.getClassLoader());
        for (String arch : ARCHES) {
            List<String> objects = new ArrayList<>();
            for (String name : List.of("caller", "callee")) {
                String text;
                try (java.io.InputStream in = CallCubinStructureTest.class.getResourceAsStream("/link/" + name + ".ptx")) {
                    text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
                }
                java.nio.file.Path ptx = dir.resolve(name + "-" + arch + ".ptx");
                Files.writeString(ptx, text.replace(".target sm_75", ".target " + arch),
                        java.nio.charset.StandardCharsets.ISO_8859_1);
                byte[] object = OracleAcceptanceTest.compilePtx(registry, ptx, arch, true, true, true).cubin();
                Cubin c = Cubin.read(object);
                org.junit.jupiter.api.Assertions.assertEquals(7, c.header().abiVersion());
                List<String> rows = structure(c);
                org.junit.jupiter.api.Assertions.assertTrue(rows.stream().anyMatch(r -> r.startsWith(".nv.prototype ")
                        && r.contains("<_Z7ext_mixjj,#iii>")), name + " " + arch + ": " + rows);
                java.nio.file.Path o = dir.resolve(name + "-" + arch + ".o");
                Files.write(o, object);
                objects.add(o.toString());
            }
            List<String> cmd = new ArrayList<>(List.of(nvlink.toString(), "-arch=" + arch));
            cmd.addAll(objects);
            cmd.addAll(List.of("-o", dir.resolve("linked-" + arch + ".cubin").toString()));
            org.jptxas.testing.Processes.Result link = org.jptxas.testing.Processes.run(cmd, dir);
            assertEquals(0, link.exitCode(), arch + ": nvlink 12.5: " + link.stderr());
        }
    }

    /**
     * The structure gate over call kernels: each pair's cubin from {@code compile} against ptxas 13's. A ptxas
     * failure is an oracle failure, a throw of ours a crash.
     */
    static Gate structureGate(List<KernelCase> kernels, SuiteRun run, Map<String, String> known) {
        Gate gate = Gate.withKnown("call kernels carry ptxas's cubin structure", known);
        for (SuiteRun.Pair pair : SuiteRun.pairs(kernels)) {
            OracleCubins.Compiled p = OracleCubins.ptxas13(pair.kernel().ptx(), pair.arch());
            if (!p.ok()) {
                gate.oracleFailed(pair.key(), p.diagnostics());
                continue;
            }
            try {
                byte[] ours = run.compile(pair.kernel().ptx(), pair.arch(), CompileOptions.defaults()).cubin();
                String diff = difference(Files.readAllBytes(p.cubin().orElseThrow()), ours);
                if (diff == null) {
                    gate.pass();
                } else {
                    System.out.println("  " + pair.key() + (known.containsKey(pair.key()) ? " (known)" : "") + ":\n    "
                            + diff);
                    gate.differ(pair.key(), diff);
                }
            } catch (Exception | StackOverflowError e) {
                gate.crash(pair.key(), e);
            }
        }
        return gate;
    }

    @Test
    @Tag("slow") // about 25 s: 25 compilations by jptxas (and ptxas on a cold cache)
    void callKernelsCarryPtxasSectionsAndAttributes() {
        List<KernelCase> kernels = KERNELS.stream().map(n -> KernelSuite.byName(n).orElseThrow()).toList();
        Gate gate = structureGate(kernels, new SuiteRun(), KNOWN);
        System.out.println(gate.summary());
        gate.verify(SuiteRun.pairs(kernels).size());
        Figures.check("calls.structure.pairs", gate.compared() - KNOWN.size());
    }
}
