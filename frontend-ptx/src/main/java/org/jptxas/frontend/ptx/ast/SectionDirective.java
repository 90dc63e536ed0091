package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** {@code .section .debug_info { ... }}: raw debug data. */
public record SectionDirective(SourcePos pos, String name, List<SectionEntry> entries) implements ModuleItem {
    public SectionDirective {
        entries = List.copyOf(entries);
    }

    /** One line of a section body. */
    public sealed interface SectionEntry extends Node permits Data, Label {
    }

    /** {@code .b8 1, 2, 3} or {@code .b32 .debug_abbrev} or {@code .b64 $L__func_begin0}. */
    public record Data(SourcePos pos, String type, List<Expr> values) implements SectionEntry {
        public Data {
            values = List.copyOf(values);
        }
    }

    /** {@code $L__info_string0:} */
    public record Label(SourcePos pos, String name) implements SectionEntry {
    }
}
