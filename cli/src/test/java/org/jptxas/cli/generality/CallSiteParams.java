package org.jptxas.cli.generality;

/**
 * Call-site parameters for the instruction-form suite. Inside a kernel, {@code st.param} and {@code st.param::func}
 * write the argument of a call and {@code ld.param::func} reads a call's return value; kernel parameters themselves
 * are read-only. A case of those forms therefore runs around a call of a device function that copies its argument
 * ({@code <name>_a}) into its return value ({@code <name>_r}): a read reads the return value after the call, a write
 * writes the argument before it, and the returned bytes are compared.
 */
final class CallSiteParams {
    private CallSiteParams() {}

    /** Bytes of the argument and of the return value: the widest scalar access, b128 (a call passes them in registers). */
    static final int BYTES = 16;

    /** The copying device function, a module-scope declaration. */
    static String function(String name) {
        StringBuilder sb = new StringBuilder(".func (.param .align 16 .b8 " + name + "_ret[" + BYTES + "]) "
                + name + "_copy(.param .align 16 .b8 " + name + "_in[" + BYTES + "])\n{\n  .reg .b64 %w;\n");
        for (int at = 0; at < BYTES; at += 8) {
            sb.append("  ld.param.b64 %w, [").append(name).append("_in+").append(at).append("];\n");
            sb.append("  st.param.b64 [").append(name).append("_ret+").append(at).append("], %w;\n");
        }
        return sb.append("  ret;\n}\n").toString();
    }

    /** The kernel-scope declarations of the call's argument and return value. */
    static String declarations(String name) {
        return "  .param .align 16 .b8 " + name + "_a[" + BYTES + "];\n"
                + "  .param .align 16 .b8 " + name + "_r[" + BYTES + "];\n";
    }

    /** The call. */
    static String call(String name) {
        return "call.uni (" + name + "_r), " + name + "_copy, (" + name + "_a);";
    }

    /** The symbol a case addresses: the argument for a write, the return value for a read. */
    static String symbol(String name, boolean writes) {
        return name + (writes ? "_a" : "_r");
    }
}
