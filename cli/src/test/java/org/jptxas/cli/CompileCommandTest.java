package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinFacts;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Real compilation from the command line: README's first command, several inputs into one cubin, {@code -v},
 * {@code --out-sass}, {@code --dump-ir}, {@code --verify-ir}, and no output file when compiling fails. The README's
 * command must work, on sm_75 … sm_90: a failure fails, it is never skipped.
 */
class CompileCommandTest {
    @TempDir
    Path dir;

    private Path saxpy() throws IOException {
        Path src = RepoRoot.find().orElseThrow().resolve("examples/saxpy.ptx");
        Path p = dir.resolve("saxpy.ptx");
        Files.copy(src, p);
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void readmeCommandWritesACubin(String arch) throws IOException {
        saxpy();
        CliRun r = CliRun.run(dir, "-arch=" + arch, "saxpy.ptx", "-o", "saxpy.cubin", "--out-sass", "saxpy.sass", "-v");
        assertEquals(0, r.exitCode(), r.err());
        Cubin cubin = Cubin.read(Files.readAllBytes(dir.resolve("saxpy.cubin")));
        assertEquals(Integer.parseInt(arch.substring(3)), cubin.sm());
        assertEquals(List.of("saxpy"), CubinFacts.functions(cubin).stream().map(f -> f.name()).toList());
        assertTrue(r.err().contains("jptxas info    : Compiling entry function 'saxpy' for '" + arch + "'"), r.err());
        assertTrue(r.err().contains("jptxas info    : Used "), r.err());
        String sass = Files.readString(dir.resolve("saxpy.sass"));
        assertTrue(sass.contains("EXIT ;") && sass.contains("BRA `(.L_x_"), sass);
    }

    /** Called as ptxas (a link of that name), the -v report is under that name, and only the tool name changes. */
    @Test
    void reportIsUnderTheNameTheLauncherWasCalledBy() throws IOException {
        saxpy();
        CliRun own = CliRun.run(dir, "-arch=sm_80", "saxpy.ptx", "-o", "a.cubin", "-v");
        CliRun asPtxas = CliRun.run(dir, "--tool-name=ptxas", "-arch=sm_80", "saxpy.ptx", "-o", "b.cubin", "-v");
        assertEquals(0, asPtxas.exitCode(), asPtxas.err());
        assertTrue(asPtxas.err().startsWith("ptxas info    : 0 bytes gmem"), asPtxas.err());
        assertFalse(asPtxas.err().contains("jptxas"), asPtxas.err());
        assertEquals(own.err().replace("jptxas info    :", "ptxas info    :"), asPtxas.err());
    }

    /**
     * A function with two results makes ptxas compile without the calling ABI: it warns, writes EI_ABIVERSION 2 below
     * sm_90 and prints no "Function properties" lines (ptxas 13.0 -v on the same text, sm_89 and sm_90).
     */
    @ParameterizedTest
    @ValueSource(strings = {"sm_89", "sm_90"})
    void severalResultsDisableTheAbi(String arch) throws IOException {
        Files.writeString(dir.resolve("two.ptx"), """
                .version 6.5
                .target sm_30
                .address_size 64
                .func (.reg .u32 a, .reg .pred b) two(.reg .u32 x)
                {
                    add.u32 a, x, 1;
                    setp.eq.u32 b, x, 0;
                    ret;
                }
                .visible .entry k(.param .u64 out)
                {
                    .reg .u64 o;
                    .reg .u32 t;
                    .reg .pred p;
                    ld.param.u64 o, [out];
                    call (t, p), two, (t);
                    st.u32 [o], t;
                    @p st.u32 [o+4], 123;
                    ret;
                }
                """);
        CliRun r = CliRun.run(dir, "-arch=" + arch, "-v", "two.ptx", "-o", "two.cubin");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("jptxas warning : Function 'two' with multiple return values found, disabling ABI"),
                r.err());
        assertFalse(r.err().contains("Function properties"), r.err());
        assertTrue(r.err().contains("jptxas info    : Used "), r.err());
        byte[] cubin = Files.readAllBytes(dir.resolve("two.cubin"));
        assertEquals(arch.equals("sm_89") ? 2 : 8, cubin[8]);
    }

    /**
     * A kernel declared without .visible gets a local symbol written before its code section's, as ptxas 13 writes
     * it, and the --out-sass listing labels it and numbers the section end label as nvdisasm does.
     */
    @Test
    void hiddenKernelIsALocalSymbol() throws IOException {
        Path a = saxpy();
        Files.writeString(a, Files.readString(a).replace(".visible .entry saxpy", ".entry saxpy"));
        CliRun r = CliRun.run(dir, "-arch=sm_80", "saxpy.ptx", "-o", "hidden.cubin", "--out-sass", "hidden.sass");
        assertEquals(0, r.exitCode(), r.err());
        Cubin cubin = Cubin.read(Files.readAllBytes(dir.resolve("hidden.cubin")));
        List<org.jptxas.cubin.Symbol> symbols = cubin.symbols();
        int kernel = -1;
        int text = -1;
        for (int i = 0; i < symbols.size(); i++) {
            kernel = symbols.get(i).name().equals("saxpy") ? i : kernel;
            text = symbols.get(i).name().equals(".text.saxpy") ? i : text;
        }
        assertEquals(org.jptxas.cubin.Symbol.STB_LOCAL, symbols.get(kernel).binding());
        assertEquals(text - 1, kernel, "the kernel's symbol comes right before its section's");
        assertEquals(List.of("saxpy"), CubinFacts.functions(cubin).stream().map(f -> f.name()).toList());
        String sass = Files.readString(dir.resolve("hidden.sass"));
        assertTrue(sass.contains("\nsaxpy:\n") && sass.contains(".size           saxpy,(.L_x_"), sass);
    }

    /**
     * .nv.shared.<kernel> is aligned as ptxas 13 aligns it: the largest alignment of the kernel's shared variables (1
     * for a lone .b8 array), at least 16 for dynamic shared memory.
     */
    @ParameterizedTest
    @CsvSource({".shared .align 16 .b8 buf[100];,16", ".shared .b8 buf[3];,1", ".shared .align 4 .b8 buf[8];,4"})
    void sharedSectionTakesTheVariablesAlignment(String declaration, long alignment) throws IOException {
        Files.writeString(dir.resolve("sh.ptx"), """
                .version 8.0
                .target sm_80
                .address_size 64
                .extern .shared .align 8 .b8 dyn[];
                .visible .entry sh(.param .u64 out)
                {
                    DECL
                    .reg .b16 %h<2>;
                    .reg .b64 %rd<2>;
                    ld.param.u64 %rd1, [out];
                    ld.shared.u8 %h1, [buf+1];
                    st.global.u8 [%rd1], %h1;
                    ret;
                }
                .visible .entry dynamic(.param .u64 out)
                {
                    .reg .b16 %h<2>;
                    .reg .b64 %rd<2>;
                    ld.param.u64 %rd1, [out];
                    ld.shared.u8 %h1, [dyn+1];
                    st.global.u8 [%rd1], %h1;
                    ret;
                }
                """.replace("DECL", declaration));
        CliRun r = CliRun.run(dir, "-arch=sm_80", "sh.ptx", "-o", "sh.cubin");
        assertEquals(0, r.exitCode(), r.err());
        Cubin cubin = Cubin.read(Files.readAllBytes(dir.resolve("sh.cubin")));
        assertEquals(alignment, cubin.section(".nv.shared.sh").orElseThrow().addralign());
        assertEquals(16, cubin.section(".nv.shared.dynamic").orElseThrow().addralign());
    }

    @Test
    void severalInputsGoIntoOneCubin() throws IOException {
        Path a = saxpy();
        Files.writeString(dir.resolve("b.ptx"), Files.readString(a).replace("saxpy", "saxpy2"));
        CliRun r = CliRun.run(dir, "-arch=sm_80", "saxpy.ptx", "b.ptx", "-o", "two.cubin");
        assertEquals(0, r.exitCode(), r.err());
        Cubin cubin = Cubin.read(Files.readAllBytes(dir.resolve("two.cubin")));
        assertEquals(List.of("saxpy", "saxpy2"), CubinFacts.functions(cubin).stream().map(f -> f.name()).sorted().toList());
    }

    @Test
    void dumpAndVerifyIr() throws IOException {
        saxpy();
        CliRun r = CliRun.run(dir, "-arch=sm_80", "saxpy.ptx", "-o", "s.cubin", "--dump-ir=regalloc", "--verify-ir");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("// ---- Ori after regalloc: saxpy"), r.out());
        assertFalse(r.out().contains("// ---- Ori after lower"), r.out());
    }

    @Test
    void aFailedCompilationLeavesNoOutput() throws IOException {
        // The second file has a semantic error: nothing is written, not even for the good first file.
        saxpy();
        Files.writeString(dir.resolve("bad.ptx"), ".version 8.0\n.target sm_80\n.address_size 64\n"
                + ".visible .entry k()\n{\n.reg .b32 %r<3>;\nmov.b32 %r1, %q;\nret;\n}\n");
        CliRun r = CliRun.run(dir, "-arch=sm_80", "saxpy.ptx", "bad.ptx", "-o", "out.cubin", "--out-sass", "out.sass");
        assertEquals(255, r.exitCode());
        assertTrue(r.err().contains("jptxas bad.ptx, line 7; error   : Unknown symbol '%q'"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(dir.resolve("out.cubin")));
        assertFalse(Files.exists(dir.resolve("out.sass")));
    }
}
