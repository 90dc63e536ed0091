package org.jptxas.spi;

import java.util.Objects;

/**
 * The tables that read a target's SASS: the encoding forms, the modifier enums and the latency table. A target with
 * code generation has them in its {@code codegen} block; a target the backend only decodes names them in a
 * {@code "tables"} block of {@code backend.json} (same field names), so the disassembler, the dumper and the emulator
 * read its cubins while the compiler still refuses it by name.
 */
public record DecodeTables(CodegenSpec.Layered sass, CodegenSpec.Layered modifiers, String latency) {
    public DecodeTables {
        Objects.requireNonNull(sass, "sass");
        Objects.requireNonNull(modifiers, "modifiers");
        Objects.requireNonNull(latency, "latency");
    }
}
