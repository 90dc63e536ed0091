package org.jptxas.isel.select;

import org.jptxas.ori.ir.Sym;

/**
 * The SASS text of one instruction. {@code text} is what nvdisasm prints ({@code MOV R2, 32@lo(g)});
 * {@code assemblyText} is what {@link org.jptxas.isel.sass.SassAssembler} encodes (a relocated field as {@code 0x0},
 * to be patched by {@code relocation}); both are equal when {@code relocation} is null.
 */
public record SassLine(String text, String assemblyText, Sym relocation) {
    @Override
    public String toString() {
        return text;
    }
}
