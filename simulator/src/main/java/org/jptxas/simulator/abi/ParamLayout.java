package org.jptxas.simulator.abi;

import java.util.ArrayList;
import java.util.List;

/**
 * Byte offsets of kernel parameters inside the parameter area, following PTX's rules: parameters are placed in
 * declaration order, each at the next multiple of its alignment (a scalar's size unless {@code .align} says
 * otherwise); the area's size is the end of the last parameter.
 */
public record ParamLayout(List<Slot> slots, int size) {
    /** One parameter: its declared size and alignment and where it lands. */
    public record Slot(int offset, int size, int align) {}

    public ParamLayout {
        slots = List.copyOf(slots);
    }

    /** A parameter as a kernel declares it: {@code .param .u32 p} is (4, 4), {@code .param .align 16 .b8 s[24]} (24, 16). */
    public record Declared(int size, int align) {
        public Declared {
            if (size < 0 || align < 1 || Integer.bitCount(align) != 1) {
                throw new IllegalArgumentException("bad parameter size/alignment " + size + "/" + align);
            }
        }
    }

    public static ParamLayout of(List<Declared> params) {
        List<Slot> slots = new ArrayList<>();
        int offset = 0;
        for (Declared d : params) {
            offset = (offset + d.align() - 1) & -d.align();
            slots.add(new Slot(offset, d.size(), d.align()));
            offset += d.size();
        }
        return new ParamLayout(slots, offset);
    }
}
