package org.jptxas.ori.ir;

import java.util.List;
import java.util.Objects;

/**
 * The DWARF a PTX module carries in its own {@code .section .debug_*} blocks (NVVM writes {@code .debug_abbrev},
 * {@code .debug_info}, {@code .debug_pubnames}, {@code .debug_macinfo}), which ptxas 13 copies into a {@code -g}
 * cubin: each section's bytes with the words that name code, parameters or other debug sections left to be filled in
 * once the code is laid out.
 *
 * @param sections the non-empty sections in source order
 */
public record DwarfSections(List<Section> sections) {
    /** No DWARF: the PTX carries none, or modules built without the PTX front end. */
    public static final DwarfSections NONE = new DwarfSections(List.of());

    public DwarfSections {
        sections = List.copyOf(sections);
    }

    public boolean present() {
        return !sections.isEmpty();
    }

    /**
     * One section.
     *
     * @param name       {@code .debug_info} etc.
     * @param data       its bytes; the words {@code addresses} name hold 0
     * @param addresses  the words filled in after code generation
     */
    public record Section(String name, byte[] data, List<Address> addresses) {
        public Section {
            Objects.requireNonNull(name, "name");
            data = data.clone();
            addresses = List.copyOf(addresses);
        }

        @Override
        public byte[] data() {
            return data.clone();
        }
    }

    /** A word of {@code width} bytes at {@code offset} in its section whose value is known after code generation. */
    public sealed interface Address permits CodeLabel, Symbol, SectionOffset {
        int offset();

        int width();
    }

    /**
     * The address of a label in {@code function}'s body at PTX line {@code ptxLine} ({@code $L__func_begin0},
     * {@code $L__tmp3}): where the code of the PTX lines after it begins; {@code endsBody} for the body's last
     * statement ({@code $L__func_end0}), which stands for the end of the function's code.
     */
    public record CodeLabel(int offset, int width, String function, int ptxLine, boolean endsBody)
            implements Address {}

    /**
     * The offset of another debug section ({@code .b32 .debug_abbrev}, {@code .b32 .debug_line}): 0, one compilation
     * unit per section, relocated against the section in relocatable output.
     */
    public record SectionOffset(int offset, int width, String section) implements Address {}

    /** The address of a module-level name: a kernel parameter (its constant-bank address) or another variable. */
    public record Symbol(int offset, int width, String name) implements Address {}
}
