package org.jptxas.frontend.ptx.ast;

/** {@code .address_size 64}. */
public record AddressSizeDirective(SourcePos pos, long bits) implements ModuleItem {
}
