package org.jptxas.sass;

/** Names branch targets when printing (nvdisasm's {@code .L_x_N}); null = print the address. */
@FunctionalInterface
public interface LabelNamer {
    String nameOf(long address);
}
