package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Initializer;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.jptxas.frontend.ptx.parse.ConstantEvaluator;
import org.jptxas.frontend.ptx.parse.SymbolAddress;
import org.jptxas.ori.ir.GlobalVar;

/**
 * The initial bytes of a module variable (little endian, element by element, zero-filled to the size) and the
 * addresses of variables among them ({@code x}, {@code generic(x)}, {@code x+N}): their bytes stay zero and the cubin
 * relocates them.
 */
final class InitializerBytes {
    /** A variable's initial bytes and the addresses in them. */
    record Contents(byte[] bytes, List<GlobalVar.Address> addresses) {
        Contents {
            addresses = List.copyOf(addresses);
        }
    }

    /** An initializer jptxas cannot turn into bytes. */
    static final class NotConstant extends Exception {
        private static final long serialVersionUID = 1L;

        NotConstant(String message) {
            super(message, null, false, false);
        }
    }

    private InitializerBytes() {}

    /** Bytes of an initializer without addresses (a test's and a constant folder's view). */
    static byte[] of(VariableDecl decl, Declarator d, long size) throws NotConstant {
        Contents c = of(decl, d, size, name -> false);
        if (!c.addresses().isEmpty()) {
            throw new NotConstant("initializers with addresses of variables");
        }
        return c.bytes();
    }

    /**
     * The contents of {@code d}'s initializer.
     *
     * @param isFunction whether a name is a function's (whose address in data ptxas gives as a code offset, which
     *                   jptxas does not reproduce)
     */
    static Contents of(VariableDecl decl, Declarator d, long size, Predicate<String> isFunction) throws NotConstant {
        byte[] out = new byte[(int) size];
        List<GlobalVar.Address> addresses = new ArrayList<>();
        List<Expr> scalars = new ArrayList<>();
        flatten(d.initializer(), scalars);
        int elem = decl.type() == PtxType.PRED ? 4 : decl.type().sizeBytes();
        int pos = 0;
        for (Expr e : scalars) {
            if (pos + elem > out.length) {
                break;
            }
            GlobalVar.Address address = address(e, pos);
            if (address != null) {
                if (isFunction.test(address.symbol())) {
                    throw new NotConstant("initializers with addresses of functions");
                }
                addresses.add(address);
            } else {
                long bits = bits(e, decl.type());
                for (int i = 0; i < elem; i++) {
                    out[pos + i] = (byte) (bits >>> (8 * i));
                }
            }
            pos += elem;
        }
        return new Contents(out, addresses);
    }

    /** {@code e} as a symbol's address plus a constant (at byte {@code offset} of the variable), or null. */
    private static GlobalVar.Address address(Expr e, long offset) throws NotConstant {
        try {
            return SymbolAddress.of(e).map(a -> new GlobalVar.Address(offset, a.symbol(), a.addend())).orElse(null);
        } catch (ConstantEvaluator.NotConstantException ex) {
            throw new NotConstant("initializers with sums of addresses");
        }
    }

    private static void flatten(Initializer init, List<Expr> out) throws NotConstant {
        if (init instanceof Initializer.Value v) {
            out.add(v.value());
        } else if (init instanceof Initializer.Aggregate a) {
            for (Initializer e : a.elements()) {
                flatten(e, out);
            }
        } else {
            throw new NotConstant("texture/sampler field initializers");
        }
    }

    /**
     * The raw bits of a constant of {@code type}: integers truncated, floats converted to a float type's format. A
     * float into {@code .b32} becomes an f32 (as ptxas writes it); into other bit types its own bits are truncated
     * (a {@code 0f} literal's 32, else the double's 64).
     */
    static long bits(Expr e, PtxType type) throws NotConstant {
        boolean isFloat = switch (type) {
            case F16, BF16, F32, F64 -> true;
            default -> false;
        };
        if (e instanceof Expr.FloatLit f) {
            if (isFloat) {
                return FloatBits.convert(f, type);
            }
            return type == PtxType.B32 && f.form() != Expr.FloatForm.HEX_F32
                    ? FloatBits.ofDouble(f.value(), PtxType.F32) : FloatBits.rawBits(f);
        }
        if (e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NEG && u.operand() instanceof Expr.FloatLit f && isFloat) {
            return FloatBits.negate(FloatBits.convert(f, type), type);
        }
        try {
            if (ConstantEvaluator.isFloat(e)) {
                PtxType format = isFloat ? type : type == PtxType.B32 ? PtxType.F32 : PtxType.F64;
                return FloatBits.ofDouble(ConstantEvaluator.evaluateFloat(e), format);
            }
            long v = ConstantEvaluator.evaluate(e);
            return isFloat ? FloatBits.fromInteger(v, type) : v;
        } catch (ConstantEvaluator.NotConstantException ex) {
            throw new NotConstant("initializers with addresses of variables");
        }
    }
}
