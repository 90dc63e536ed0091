package org.jptxas.cubin;

import java.util.List;

/**
 * The debug sections of a {@link CubinBuilder} cubin: {@code .debug_frame} ({@link DebugFrame}) and, with line
 * tables, {@code .debug_line}, {@code .nv_debug_line_sass} ({@link DebugLine}), the PTX text and the PTX's own DWARF
 * ({@link CubinBuilder.DwarfSection}). Their relocations
 * are {@link RelocationSections}'.
 */
final class DebugSections {
    /** ptxas's {@code -g} register maps ({@link RegisterMaps}). */
    static final String REG_SASS = ".nv_debug_info_reg_sass";
    static final String REG_TYPE = ".nv_debug_info_reg_type";

    private final CubinBuilder b;
    final DebugFrame.Encoded frame;
    /** {@code .debug_line} and {@code .nv_debug_line_sass}; null without line tables. */
    final DebugLine.Encoded line;
    final DebugLine.Encoded lineSass;

    DebugSections(CubinBuilder b) {
        this.b = b;
        frame = DebugFrame.encode(b.flavor, b.functions, b.relocatable);
        if (b.lineTables != null) {
            line = DebugLine.encode(b.lineTables.files(), b.lineTables.sourceLines());
            // Relocatable output names the PTX text's section as the table's one file; executables name none.
            lineSass = DebugLine.encode(b.relocatable ? List.of(new DebugLine.File(b.ptxTextSection(), 0, 0))
                    : List.of(), b.lineTables.ptxLines());
        } else {
            line = null;
            lineSass = null;
        }
    }

    /** The encoded line table of {@code .debug_line} or {@code .nv_debug_line_sass}. */
    DebugLine.Encoded lineTable(String section) {
        return section.equals(".debug_line") ? line : lineSass;
    }

    /** The PTX's DWARF section {@code n}, or null. */
    CubinBuilder.DwarfSection dwarf(String n) {
        return b.dwarfSections().stream().filter(d -> d.name().equals(n)).findFirst().orElse(null);
    }

    /** Section {@code n} if it is a debug section, else null. */
    Section section(String n, int name) {
        byte[] b;
        if (n.equals(".debug_frame")) {
            b = frame.bytes();
        } else if (n.equals(".debug_line") || n.equals(".nv_debug_line_sass")) {
            b = lineTable(n).bytes();
        } else if (this.b.lineTables != null && n.equals(this.b.ptxTextSection())) {
            b = this.b.lineTables.ptxText();
        } else if (n.equals(REG_SASS) && this.b.writesRegisterMaps()) {
            b = RegisterMaps.sass(this.b.registerMaps);
        } else if (n.equals(REG_TYPE) && this.b.writesRegisterMaps()) {
            b = RegisterMaps.types(this.b.registerMaps);
        } else if (dwarf(n) != null) {
            b = dwarf(n).data();
        } else {
            return null;
        }
        return new Section(n, name, SectionType.PROGBITS, 0, 0, b.length, 0, 0, 1, 0, b);
    }
}
