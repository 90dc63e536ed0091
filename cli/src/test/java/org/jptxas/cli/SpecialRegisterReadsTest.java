package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.cubin.Cubin;
import org.jptxas.sass.oracle.NvdisasmListing;
import org.jptxas.sass.oracle.OracleListings;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every special register PTX names, read alone in a kernel, on each SM: jptxas compiles what ptxas 13 compiles
 * (except {@link #NOT_YET}, refused by name) and reads the same hardware registers (the {@code SR_*} operands of
 * S2R/S2UR/CS2R in nvdisasm 12.5's text of both cubins; whether through S2R or S2UR is the uniform datapath's
 * choice, not compared). Then one kernel storing the lane masks, lane, warp and
 * clock-derived values runs three ways (PTX interpreter, SASS emulator on ptxas's and on jptxas's cubin) and must
 * agree.
 */
class SpecialRegisterReadsTest {
    @TempDir
    Path dir;

    static final List<String> REGISTERS = List.of("%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%laneid", "%warpid",
            "%nwarpid", "%ctaid.x", "%ctaid.z", "%nctaid.y", "%smid", "%nsmid", "%gridid", "%lanemask_eq",
            "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%clock", "%clock_hi", "%clock64",
            "%pm0", "%pm3", "%pm7", "%pm0_64", "%pm5_64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
            "%dynamic_smem_size", "%clusterid.x", "%nclusterid.y", "%cluster_ctaid.z", "%cluster_nctaid.x",
            "%cluster_ctarank", "%cluster_nctarank");

    /** Registers jptxas does not read yet: it refuses them by name (exact: one that comes to compile fails as stale). */
    static final Set<String> NOT_YET = Set.of();

    private static final Set<String> WIDE = Set.of("%clock64", "%pm0_64", "%pm5_64", "%globaltimer", "%gridid");
    private static final Pattern SR = Pattern.compile("\\b(?:S2R|S2UR|CS2R(?:\\.32)?) U?R\\w+, (SR\\w*(?:\\.[XYZ])?)");

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void jptxasReadsTheRegistersPtxasReads(String sm) throws IOException {
        Oracles.assumePtxas13();
        Path nvdisasm = Oracles.assumeNvdisasm();
        List<String> differences = new ArrayList<>();
        Set<String> refused = new TreeSet<>();
        List<Pair> pairs = new ArrayList<>();
        for (String reg : REGISTERS) {
            String name = reg.replaceAll("\\W", "_");
            Path ptx = dir.resolve(sm + name + ".ptx");
            Files.writeString(ptx, kernel(sm, reg));
            OracleCubins.Compiled theirs = OracleCubins.ptxas13(ptx, sm);
            Path ours = dir.resolve(sm + name + ".cubin");
            CliRun r = CliRun.run(dir, "-arch=" + sm, ptx.toString(), "-o", ours.toString());
            if (!theirs.ok()) {
                if (r.exitCode() == 0) {
                    differences.add(reg + ": ptxas refuses (" + theirs.diagnostics().strip() + "), jptxas compiles");
                }
                continue;
            }
            if (r.exitCode() != 0) {
                if (r.err().contains("not yet supported")) {
                    refused.add(reg);
                } else {
                    differences.add(reg + ": jptxas fails: " + r.err().strip());
                }
                continue;
            }
            pairs.add(new Pair(reg, theirs.cubin().get(), ours));
        }
        List<Path> cubins = new ArrayList<>();
        pairs.forEach(p -> cubins.addAll(List.of(p.theirs(), p.ours())));
        List<Set<String>> read = registersRead(nvdisasm, sm, cubins);
        for (int i = 0; i < pairs.size(); i++) {
            Set<String> want = read.get(2 * i);
            Set<String> got = read.get(2 * i + 1);
            if (!want.equals(got)) {
                differences.add(pairs.get(i).reg() + ": ptxas reads " + want + ", jptxas " + got);
            }
        }
        assertEquals(List.of(), differences);
        assertEquals(new TreeSet<>(NOT_YET), refused, "registers refused by name");
    }

    private static String kernel(String sm, String reg) {
        boolean wide = WIDE.contains(reg);
        String type = wide ? "u64" : "u32";
        String r = wide ? "%rd2" : "%r1";
        return module(sm, "mov." + type + " " + r + ", " + reg + ";\nst.global." + type + " [%rd1], " + r + ";\n");
    }

    /** A kernel {@code k(.param .u64 p)} for {@code sm} with {@code %rd1} holding {@code p}, then {@code body}. */
    private static String module(String sm, String body) {
        return """
                .version 8.3
                .target %s
                .address_size 64
                .visible .entry k(.param .u64 p)
                {
                .reg .b32 %%r<4>; .reg .b64 %%rd<4>;
                ld.param.u64 %%rd1, [p];
                %sret;
                }
                """.formatted(sm, body);
    }

    /** One register's kernel as ptxas and as jptxas compiled it. */
    private record Pair(String reg, Path theirs, Path ours) {}

    /**
     * The registers each cubin's code reads, in order. nvdisasm costs about half a second of CPU per process start,
     * and one start per cubin made this test's 360 starts its whole run time: the code sections of all of an SM's
     * cubins go through one raw {@code nvdisasm -b SMxx} run instead, each instruction credited to its cubin by
     * address. Should nvdisasm refuse the batch, every cubin is read on its own as before, so a refusal still
     * fails by cubin.
     */
    static List<Set<String>> registersRead(Path nvdisasm, String sm, List<Path> cubins) throws IOException {
        java.io.ByteArrayOutputStream code = new java.io.ByteArrayOutputStream();
        long[] ends = new long[cubins.size()];
        for (int i = 0; i < cubins.size(); i++) {
            for (org.jptxas.cubin.Section s : Cubin.read(Files.readAllBytes(cubins.get(i))).textSections()) {
                code.write(s.data());
            }
            ends[i] = code.size();
        }
        NvdisasmListing listing;
        try {
            listing = OracleListings.raw(code.toByteArray(), sm.equals("sm_90") ? "sm_90a" : sm);
        } catch (OracleListings.NvdisasmException e) {
            return cubins.stream().map(c -> registersRead(nvdisasm, c)).toList();
        }
        List<Set<String>> out = new ArrayList<>();
        cubins.forEach(c -> out.add(new TreeSet<>()));
        // every word is credited to a cubin: a listing that lost words would compare less than each cubin's own
        assertEquals(code.size() / 16, listing.sections().stream().mapToInt(s -> s.lines().size()).sum(),
                sm + ": instructions nvdisasm listed for the cubins' code");
        for (NvdisasmListing.Section s : listing.sections()) {
            for (NvdisasmListing.Line line : s.lines()) {
                int i = 0;
                while (ends[i] <= line.address()) {
                    i++;
                }
                addRegisters(line.text(), out.get(i));
            }
        }
        return out;
    }

    static Set<String> registersRead(Path nvdisasm, Path cubin) {
        Processes.Result p = Processes.run(List.of(nvdisasm.toString(), cubin.toString()), cubin.getParent());
        assertEquals(0, p.exitCode(), p.stderr());
        Set<String> out = new TreeSet<>();
        addRegisters(p.stdout(), out);
        return out;
    }

    private static void addRegisters(String text, Set<String> out) {
        Matcher m = SR.matcher(text);
        while (m.find()) {
            out.add(m.group(1)); // the register; S2R or S2UR is the uniform datapath's choice
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90"})
    void laneMasksAndWarpNumbersRunAlike(String sm) throws IOException {
        Oracles.assumePtxas13();
        StringBuilder body = new StringBuilder();
        String[] regs = {"%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%laneid",
                "%warpid", "%smid", "%pm1"};
        // not %nwarpid: ptxas 13 writes the SM's warp slots as a constant per target (32 on sm_75, 64 on sm_80, 48 on
        // sm_86/89) where jptxas and the PTX interpreter have 64 (sm_90 reads SR_VIRTCFG)
        for (int i = 0; i < regs.length; i++) {
            body.append("mov.u32 %r2, ").append(regs[i]).append(";\n")
                    .append("st.global.u32 [%rd3+").append(4 * i).append("], %r2;\n");
        }
        Files.writeString(dir.resolve("k.ptx"), module(sm, "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 64;\n"
                + "add.s64 %rd3, %rd1, %rd2;\n" + body));
        Files.writeString(dir.resolve("launch.json"), """
                {"entry": "k", "grid": [1,1,1], "block": [64,1,1], "dynamic_shared_bytes": 0,
                 "params": [{"type": "ptr", "bytes": 4096, "out": "out.bin"}]}
                """);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new JptxasRunCommand(new PrintWriter(out), new PrintWriter(err), dir).run(new String[] {"--arch", sm,
                "k.ptx", "--spec", "launch.json", "--differential"});
        assertEquals(0, rc, out + "\n" + err);
        byte[] bytes = Files.readAllBytes(dir.resolve("out.bin"));
        java.nio.IntBuffer words = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        int thread = 37; // lane 5 of warp 1
        assertEquals(1 << 5, words.get(thread * 16), "lanemask_eq");
        assertEquals(0x3f, words.get(thread * 16 + 1), "lanemask_le");
        assertEquals(0x1f, words.get(thread * 16 + 2), "lanemask_lt");
        assertEquals(~0x1f, words.get(thread * 16 + 3), "lanemask_ge");
        assertEquals(~0x3f, words.get(thread * 16 + 4), "lanemask_gt");
        assertEquals(5, words.get(thread * 16 + 5), "laneid");
        assertTrue(words.get(thread * 16 + 6) == 1, "warpid");
    }
}
