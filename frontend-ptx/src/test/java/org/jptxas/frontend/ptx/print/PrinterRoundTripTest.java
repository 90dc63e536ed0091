package org.jptxas.frontend.ptx.print;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jptxas.frontend.ptx.ast.ModelEquality;
import org.jptxas.frontend.ptx.parse.ParseResult;
import org.jptxas.frontend.ptx.parse.PtxParser;
import org.jptxas.testing.OracleCubins;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** parse → print → parse gives an equal model, and ptxas accepts the printed text (project's own PTX files). */
public class PrinterRoundTripTest {
    @TempDir
    Path dir;

    public static String resource(String name) throws IOException {
        try (InputStream in = PrinterRoundTripTest.class.getResourceAsStream("/org/jptxas/frontend/ptx/own/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /** The arch is the file name's suffix: {@code ..._sm90a.ptx} → {@code sm_90a}. */
    public static String archOf(String name) {
        String stem = name.substring(0, name.length() - 4);
        return "sm_" + stem.substring(stem.lastIndexOf("_sm") + 3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"syntax_tour_sm90a.ptx", "nvcc_reduce_sm90.ptx", "nvcc_mixed_cluster_sm90.ptx",
            "nvcc_reduce_debug_sm80.ptx", "nvcc_features_sm80.ptx", "nvcc_features_lineinfo_sm100a.ptx"})
    void roundTripGivesTheSameModelAndPtxasAcceptsThePrintedText(String name) throws IOException {
        ParseResult first = PtxParser.parse(name, resource(name));
        assertTrue(first.diagnostics().isEmpty(), first.diagnostics()::toString);
        String printed = PtxPrinter.print(first.module());
        ParseResult second = PtxParser.parse(name, printed);
        assertTrue(second.diagnostics().isEmpty(), second.diagnostics()::toString);
        Optional<String> diff = ModelEquality.firstDifference(first.module(), second.module());
        assertTrue(diff.isEmpty(), () -> diff.get());
        assertEquals(printed, PtxPrinter.print(second.module()), "printing is a fixed point");

        Path file = dir.resolve(name);
        Files.writeString(file, printed, StandardCharsets.ISO_8859_1);
        OracleCubins.Compiled c = OracleCubins.ptxas13(file, archOf(name));
        assertTrue(c.ok(), c::diagnostics);
    }
}
