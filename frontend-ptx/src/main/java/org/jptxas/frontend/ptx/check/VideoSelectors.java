package org.jptxas.frontend.ptx.check;

import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.SourcePos;

/**
 * Video selectors on register operands ({@code a.b1}, {@code d.h0}, {@code a.b3210}, {@code d.h10}): where the PTX
 * ISA allows them and which, in ptxas's words. Scalar video instructions take {@code .b0}…{@code .b3},
 * {@code .h0}/{@code .h1} on d (a merge into c, without a secondary operation), a and b; the SIMD ones a lane mask
 * on d and a lane permutation on a and b.
 */
public final class VideoSelectors {
    private VideoSelectors() {}

    private static final Pattern SHAPE = Pattern.compile("b[0-7]{1,4}|h[0-3]{1,2}");
    private static final Set<String> SCALAR = Set.of("vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr",
            "vset", "vmad");
    private static final Set<String> SCALAR_SELECTORS = Set.of("b0", "b1", "b2", "b3", "h0", "h1");
    private static final Set<String> MASK2 = Set.of("h0", "h1", "h10");
    private static final Set<String> MASK4 = Set.of("b0", "b1", "b10", "b2", "b20", "b21", "b210", "b3", "b30", "b31",
            "b310", "b32", "b320", "b321", "b3210");

    /** Whether a component spells a video selector (a byte or half-word run), valid somewhere or not. */
    public static boolean isSelector(String component) {
        return component != null && SHAPE.matcher(component).matches();
    }

    /** Whether the opcode is a video instruction (scalar or SIMD). */
    public static boolean isVideo(String opcode) {
        return SCALAR.contains(opcode) || lanes(opcode) > 0;
    }

    /** 2 or 4 for a SIMD video opcode ({@code vadd2}, {@code vset4}, ...), else 0. */
    static int lanes(String opcode) {
        if (opcode.length() < 2 || !SCALAR.contains(opcode.substring(0, opcode.length() - 1))
                && !opcode.startsWith("vavrg")) {
            return 0;
        }
        char w = opcode.charAt(opcode.length() - 1);
        return w == '2' ? 2 : w == '4' ? 4 : 0;
    }

    /** The selector an operand carries, or null. */
    public static String of(Operand o) {
        return o instanceof Expr.SymbolRef s && isSelector(s.component()) ? s.component() : null;
    }

    private static boolean isIntegerLiteral(Operand o) {
        return o instanceof Expr.IntLit || o instanceof Expr.Unary u && isIntegerLiteral(u.operand());
    }

    /** Reports misplaced or ill-formed selectors of {@code i} through {@code error}, in ptxas's words. */
    static void check(Instruction i, BiConsumer<SourcePos, String> error) {
        List<Operand> ops = i.operands();
        boolean video = isVideo(i.opcode());
        int lanes = lanes(i.opcode());
        for (int k = 0; k < ops.size(); k++) {
            String sel = of(ops.get(k));
            if (sel == null) {
                if (lanes > 0 && k > 0 && isIntegerLiteral(ops.get(k))) {
                    // ptxas reads an integer where a SIMD video source goes as a selector it does not know
                    error.accept(i.pos(), "Incorrect video selector for operand " + k);
                }
                continue;
            }
            if (!video) {
                error.accept(i.pos(), "Video selector is not allowed on " + (k == 0 ? "destination" : "source operand")
                        + " for instruction '" + i.opcode() + "'");
                continue;
            }
            boolean ok = lanes == 0 ? k <= 2 && SCALAR_SELECTORS.contains(sel)
                    : k == 0 ? (lanes == 2 ? MASK2 : MASK4).contains(sel)
                    : k <= 2 && (lanes == 2 ? sel.matches("h[0-3]{2}") : sel.matches("b[0-7]{4}"));
            if (!ok) {
                error.accept(i.pos(), "Incorrect video selector for operand " + k);
            } else if (k == 0 && lanes == 0 && (i.hasModifier("add") || i.hasModifier("min")
                    || i.hasModifier("max"))) {
                error.accept(i.pos(), "Video instruction cannot have destination selector and secondary operation");
            }
        }
    }
}
