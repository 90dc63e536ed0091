package org.jptxas.isel.select;

import org.jptxas.sass.SassOp;
import org.jptxas.ori.ir.Sym;

/**
 * One selected instruction: {@code op}, the typed instruction the encoder takes, and its SASS text. {@code text} is
 * what nvdisasm prints ({@code MOV R2, 32@lo(g)}); {@code assemblyText} is the text of {@code op} (a relocated field
 * as {@code 0x0}, to be patched by {@code relocation}); both are equal when {@code relocation} is null.
 */
public record SassLine(String text, String assemblyText, Sym relocation, SassOp op) {
    @Override
    public String toString() {
        return text;
    }
}
