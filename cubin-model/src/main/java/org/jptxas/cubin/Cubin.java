package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A CUDA ELF (cubin) as a value: header, sections in header-table order (index 0 is the null section), program
 * headers and the file layout. Everything a cubin holds is here, so {@code Cubin.read(bytes).write()} returns
 * {@code bytes} unchanged.
 *
 * <p>Typical use:
 * <pre>{@code
 * Cubin cubin = Cubin.read(Files.readAllBytes(path));
 * for (Section text : cubin.textSections()) {
 *     byte[] code = text.data();          // the SASS words of function text.functionName()
 * }
 * List<Symbol> symbols = cubin.symbols();
 * }</pre>
 * Typed views of section contents: {@link SymbolTable}, {@link StringTable}.
 */
public record Cubin(ElfHeader header, List<Section> sections, List<ProgramHeader> programHeaders, Layout layout) {
    public Cubin {
        Objects.requireNonNull(header, "header");
        sections = List.copyOf(sections);
        programHeaders = List.copyOf(programHeaders);
        Objects.requireNonNull(layout, "layout");
        if (layout.sectionOffsets().length != sections.size()) {
            throw new IllegalArgumentException("layout has " + layout.sectionOffsets().length + " section offsets for "
                    + sections.size() + " sections");
        }
    }

    /**
     * Parses a cubin.
     *
     * @throws CubinFormatException when the bytes are not a readable 64-bit little-endian ELF, saying why and where
     */
    public static Cubin read(byte[] bytes) {
        return CubinReader.read(bytes);
    }

    /** Encodes this cubin; for a cubin that was {@link #read}, the bytes that were read. */
    public byte[] write() {
        return CubinWriter.write(this);
    }

    /** The SM number from {@code e_flags} (e.g. 90 for sm_90 and sm_90a). */
    public int sm() {
        return header.sm();
    }

    public Section section(int index) {
        return sections.get(index);
    }

    /** The first section called {@code name}. */
    public Optional<Section> section(String name) {
        return sections.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The index of the first section called {@code name}, or -1. */
    public int sectionIndex(String name) {
        for (int i = 0; i < sections.size(); i++) {
            if (sections.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The {@code .text.<function>} sections, in section order. */
    public List<Section> textSections() {
        return sections.stream().filter(Section::isText).toList();
    }

    /** The entries of {@code .symtab} (index 0, the null symbol, included), or an empty list without one. */
    public List<Symbol> symbols() {
        for (Section s : sections) {
            if (s.type() == SectionType.SYMTAB) {
                return SymbolTable.decode(this, s);
            }
        }
        return List.of();
    }

    /** The index of the {@code .symtab} section, or -1. */
    public int symtabIndex() {
        for (int i = 0; i < sections.size(); i++) {
            if (sections.get(i).type() == SectionType.SYMTAB) {
                return i;
            }
        }
        return -1;
    }

    /** A copy with section {@code index} replaced; re-laid out by {@link LayoutPlanner} when its size changes. */
    public Cubin withSection(int index, Section replacement) {
        List<Section> copy = new ArrayList<>(sections);
        copy.set(index, replacement);
        Cubin c = new Cubin(header, copy, programHeaders, layout);
        return replacement.fileSize() == sections.get(index).fileSize() ? c : LayoutPlanner.relayout(c);
    }
}
