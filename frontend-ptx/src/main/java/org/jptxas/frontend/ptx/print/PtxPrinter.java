package org.jptxas.frontend.ptx.print;

import java.util.List;
import java.util.Locale;
import org.jptxas.frontend.ptx.ast.AddressSizeDirective;
import org.jptxas.frontend.ptx.ast.AliasDirective;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.BranchTargetsDecl;
import org.jptxas.frontend.ptx.ast.CallPrototypeDecl;
import org.jptxas.frontend.ptx.ast.CallTargetsDecl;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FileDirective;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Initializer;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.LabelDef;
import org.jptxas.frontend.ptx.ast.Linkage;
import org.jptxas.frontend.ptx.ast.LocDirective;
import org.jptxas.frontend.ptx.ast.ModuleItem;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PragmaDirective;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.ast.SectionDirective;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.frontend.ptx.ast.TargetDirective;
import org.jptxas.frontend.ptx.ast.TuningDirective;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.jptxas.frontend.ptx.ast.VersionDirective;

/**
 * Prints the module model as PTX text that parses back to an equal model (positions aside) and that ptxas accepts.
 * Expressions get the fewest parentheses that keep their tree, so address operands stay in ptxas's
 * {@code [reg+imm]} form.
 */
public final class PtxPrinter {
    private final StringBuilder out = new StringBuilder();

    private PtxPrinter() {}

    public static String print(PtxModule module) {
        PtxPrinter p = new PtxPrinter();
        for (ModuleItem item : module.items()) {
            p.moduleItem(item);
        }
        return p.out.toString();
    }

    /** One operand or expression as PTX text. */
    public static String print(Operand operand) {
        PtxPrinter p = new PtxPrinter();
        p.operand(operand);
        return p.out.toString();
    }

    /** One instruction without its trailing semicolon. */
    public static String print(Instruction instruction) {
        PtxPrinter p = new PtxPrinter();
        p.instructionText(instruction);
        return p.out.toString();
    }

    private void moduleItem(ModuleItem item) {
        if (item instanceof VersionDirective v) {
            out.append(".version ").append(v.major()).append('.').append(v.minor()).append('\n');
        } else if (item instanceof TargetDirective t) {
            out.append(".target ").append(String.join(", ", t.entries())).append('\n');
        } else if (item instanceof AddressSizeDirective a) {
            out.append(".address_size ").append(a.bits()).append('\n');
        } else if (item instanceof FileDirective f) {
            out.append(".file ").append(f.index()).append(" \"").append(f.path()).append('"');
            if (f.timestamp() >= 0) {
                out.append(", ").append(f.timestamp()).append(", ").append(f.size());
            }
            out.append('\n');
        } else if (item instanceof SectionDirective s) {
            section(s);
        } else if (item instanceof PragmaDirective p) {
            pragma(p);
            out.append('\n');
        } else if (item instanceof AliasDirective a) {
            out.append(".alias ").append(a.alias()).append(", ").append(a.aliasee()).append(";\n");
        } else if (item instanceof VariableDecl v) {
            variable(v);
            out.append(";\n");
        } else if (item instanceof FunctionDecl f) {
            function(f);
        }
    }

    private void section(SectionDirective s) {
        out.append(".section ").append(s.name()).append("\n{\n");
        for (SectionDirective.SectionEntry e : s.entries()) {
            if (e instanceof SectionDirective.Data d) {
                out.append("\t.").append(d.type()).append(' ');
                expressionList(d.values());
                out.append('\n');
            } else if (e instanceof SectionDirective.Label l) {
                out.append(l.name()).append(":\n");
            }
        }
        out.append("}\n");
    }

    private void pragma(PragmaDirective p) {
        out.append(".pragma ");
        for (int i = 0; i < p.values().size(); i++) {
            out.append(i == 0 ? "" : ", ").append('"').append(p.values().get(i)).append('"');
        }
        out.append(';');
    }

    private void variable(VariableDecl v) {
        if (v.linkage() != Linkage.NONE) {
            out.append(v.linkage().directive()).append(' ');
        }
        out.append(v.space().directive());
        if (!v.attributes().isEmpty()) {
            out.append(" .attribute(");
            for (int i = 0; i < v.attributes().size(); i++) {
                out.append(i == 0 ? "." : ", .").append(v.attributes().get(i));
            }
            out.append(')');
        }
        if (v.align() != 0) {
            out.append(" .align ").append(v.align());
        }
        if (v.vectorLength() != 0) {
            out.append(" .v").append(v.vectorLength());
        }
        out.append(" .").append(v.type().ptxName());
        if (v.pointer() != null) {
            out.append(" .ptr");
            if (v.pointer().space() != null) {
                out.append(' ').append(v.pointer().space().directive());
            }
            if (v.pointer().align() != 0) {
                out.append(" .align ").append(v.pointer().align());
            }
        }
        for (int i = 0; i < v.declarators().size(); i++) {
            out.append(i == 0 ? " " : ", ");
            declarator(v.declarators().get(i));
        }
    }

    private void declarator(Declarator d) {
        out.append(d.name());
        if (d.isParameterized()) {
            out.append('<').append(d.parameterizedCount()).append('>');
        }
        for (long dim : d.dimensions()) {
            out.append('[');
            if (dim >= 0) {
                out.append(dim);
            }
            out.append(']');
        }
        if (d.initializer() != null) {
            out.append(" = ");
            initializer(d.initializer());
        }
    }

    private void initializer(Initializer init) {
        if (init instanceof Initializer.Value v) {
            expr(v.value(), 0);
        } else if (init instanceof Initializer.Aggregate a) {
            out.append('{');
            for (int i = 0; i < a.elements().size(); i++) {
                out.append(i == 0 ? "" : ", ");
                initializer(a.elements().get(i));
            }
            out.append('}');
        } else if (init instanceof Initializer.Field f) {
            out.append(f.field()).append(" = ");
            expr(f.value(), 0);
        }
    }

    private void function(FunctionDecl f) {
        if (f.linkage() != Linkage.NONE) {
            out.append(f.linkage().directive()).append(' ');
        }
        out.append(f.kind().directive());
        if (!f.attributes().isEmpty()) {
            out.append(" .attribute(");
            for (int i = 0; i < f.attributes().size(); i++) {
                FunctionDecl.Attribute a = f.attributes().get(i);
                out.append(i == 0 ? "." : ", .").append(a.name());
                if (!a.arguments().isEmpty()) {
                    out.append('(');
                    expressionList(a.arguments());
                    out.append(')');
                }
            }
            out.append(')');
        }
        if (!f.returns().isEmpty()) {
            out.append(' ');
            paramList(f.returns());
        }
        out.append(' ').append(f.name());
        paramList(f.params());
        tuning(f.tuning());
        if (f.body() == null) {
            out.append(";\n");
        } else {
            out.append('\n');
            block(f.body(), 0);
            out.append('\n');
        }
    }

    private void paramList(List<VariableDecl> params) {
        out.append('(');
        for (int i = 0; i < params.size(); i++) {
            out.append(i == 0 ? "" : ", ");
            variable(params.get(i));
        }
        out.append(')');
    }

    private void tuning(List<TuningDirective> tuning) {
        for (TuningDirective t : tuning) {
            out.append(' ').append(t.kind().directive());
            for (int i = 0; i < t.values().size(); i++) {
                out.append(i == 0 ? " " : ", ").append(t.values().get(i));
            }
        }
    }

    private void block(Block b, int indent) {
        indent(indent);
        out.append("{\n");
        for (Statement s : b.statements()) {
            statement(s, indent + 1);
        }
        indent(indent);
        out.append('}');
    }

    private void indent(int n) {
        for (int i = 0; i < n; i++) {
            out.append('\t');
        }
    }

    private void statement(Statement s, int indent) {
        if (s instanceof LabelDef l) {
            out.append(l.name()).append(":\n");
            return;
        }
        if (s instanceof Block b) {
            block(b, indent);
            out.append('\n');
            return;
        }
        indent(indent);
        if (s instanceof Instruction i) {
            instructionText(i);
            out.append(';');
        } else if (s instanceof VariableDecl v) {
            variable(v);
            out.append(';');
        } else if (s instanceof PragmaDirective p) {
            pragma(p);
        } else if (s instanceof LocDirective l) {
            out.append(".loc ").append(l.file()).append(' ').append(l.line()).append(' ').append(l.column());
            if (l.functionName() != null) {
                out.append(", function_name ");
                expr(l.functionName(), 0);
            }
            if (l.inlinedAt() != null) {
                out.append(", inlined_at ").append(l.inlinedAt().file()).append(' ').append(l.inlinedAt().line())
                        .append(' ').append(l.inlinedAt().column());
            }
        } else if (s instanceof CallPrototypeDecl c) {
            out.append(c.label()).append(": .callprototype ");
            if (!c.returns().isEmpty()) {
                paramList(c.returns());
                out.append(' ');
            }
            out.append('_');
            paramList(c.params());
            tuning(c.tuning());
            out.append(';');
        } else if (s instanceof CallTargetsDecl c) {
            out.append(c.label()).append(": .calltargets ").append(String.join(", ", c.targets())).append(';');
        } else if (s instanceof BranchTargetsDecl b) {
            out.append(b.label()).append(": .branchtargets ").append(String.join(", ", b.targets())).append(';');
        }
        out.append('\n');
    }

    private void instructionText(Instruction i) {
        if (i.guard() != null) {
            out.append('@').append(i.guard().negated() ? "!" : "").append(i.guard().predicate()).append(' ');
        }
        out.append(i.opcode());
        for (String m : i.modifiers()) {
            out.append('.').append(m);
        }
        for (int k = 0; k < i.operands().size(); k++) {
            out.append(k == 0 ? " " : ", ");
            operand(i.operands().get(k));
        }
    }

    private void operand(Operand o) {
        if (o instanceof Expr e) {
            expr(e, 0);
        } else if (o instanceof Operand.Address a) {
            out.append('[');
            operandList(a.parts());
            out.append(']');
        } else if (o instanceof Operand.Vector v) {
            out.append('{');
            operandList(v.elements());
            out.append('}');
        } else if (o instanceof Operand.Sink) {
            out.append('_');
        } else if (o instanceof Operand.ParenList p) {
            out.append('(');
            operandList(p.elements());
            out.append(')');
        } else if (o instanceof Operand.Pair p) {
            operand(p.first());
            out.append('|');
            operand(p.second());
        }
    }

    private void operandList(List<Operand> list) {
        for (int i = 0; i < list.size(); i++) {
            out.append(i == 0 ? "" : ", ");
            operand(list.get(i));
        }
    }

    private void expressionList(List<Expr> list) {
        for (int i = 0; i < list.size(); i++) {
            out.append(i == 0 ? "" : ", ");
            expr(list.get(i), 0);
        }
    }

    private static final int UNARY_PRECEDENCE = 11;

    /** Prints {@code e}, parenthesised when its precedence is below {@code minPrecedence}. */
    private void expr(Expr e, int minPrecedence) {
        if (e instanceof Expr.IntLit i) {
            intLit(i);
        } else if (e instanceof Expr.FloatLit f) {
            switch (f.form()) {
                case HEX_F32 -> out.append(String.format(Locale.ROOT, "0f%08X", f.bits() & 0xffffffffL));
                case HEX_F64 -> out.append(String.format(Locale.ROOT, "0d%016X", f.bits()));
                case DECIMAL -> out.append(Double.toString(Double.longBitsToDouble(f.bits())));
            }
        } else if (e instanceof Expr.SymbolRef s) {
            out.append(s.name());
            if (s.component() != null) {
                out.append('.').append(s.component());
            }
        } else if (e instanceof Expr.Unary u) {
            open(minPrecedence > UNARY_PRECEDENCE);
            out.append(u.op().text);
            expr(u.operand(), UNARY_PRECEDENCE);
            close(minPrecedence > UNARY_PRECEDENCE);
        } else if (e instanceof Expr.Binary b) {
            int p = b.op().precedence;
            boolean paren = p < minPrecedence;
            open(paren);
            expr(b.left(), p);
            out.append(b.op().text);
            expr(b.right(), p + 1);
            close(paren);
        } else if (e instanceof Expr.Conditional c) {
            boolean paren = minPrecedence > 0;
            open(paren);
            expr(c.condition(), 1);
            out.append(" ? ");
            expr(c.ifTrue(), 0);
            out.append(" : ");
            expr(c.ifFalse(), 0);
            close(paren);
        } else if (e instanceof Expr.Apply a) {
            out.append(a.function()).append('(');
            expressionList(a.arguments());
            out.append(')');
        }
    }

    private void open(boolean paren) {
        if (paren) {
            out.append('(');
        }
    }

    private void close(boolean paren) {
        if (paren) {
            out.append(')');
        }
    }

    private void intLit(Expr.IntLit i) {
        long v = i.value();
        switch (i.radix()) {
            case HEX -> out.append("0x").append(Long.toHexString(v).toUpperCase(Locale.ROOT));
            case OCTAL -> out.append('0').append(Long.toOctalString(v));
            case BINARY -> out.append("0b").append(Long.toBinaryString(v));
            case DECIMAL -> out.append(Long.toUnsignedString(v));
        }
        if (i.unsigned()) {
            out.append('U');
        }
    }
}
