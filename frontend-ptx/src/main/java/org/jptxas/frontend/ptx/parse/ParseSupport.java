package org.jptxas.frontend.ptx.parse;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Guard;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxVersions;
import org.jptxas.frontend.ptx.ast.SourcePos;
import org.jptxas.frontend.ptx.ast.TuningDirective;
import org.jptxas.frontend.ptx.ast.VersionDirective;
import org.jptxas.frontend.ptx.check.VideoSelectors;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.diag.Severity;

/**
 * The state and helpers behind the grammar actions of one parse: positions, literals, diagnostics, error recovery and
 * the nesting limit. One instance per parse; not thread-safe.
 */
final class ParseSupport {
    /** Deeper nesting of blocks, braces or parentheses is refused rather than risking the Java stack. */
    static final int MAX_NESTING = 200;
    /** Longer operator chains are refused: later stages walk expression trees recursively. */
    static final int MAX_OPERATORS = 1000;
    private static final int MAX_TOKEN_TEXT_IN_MESSAGE = 80;

    private final String fileName;
    private final int eofLine;
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private int depth;
    private int lastSyntaxErrorLine = -1;
    /** Whether the operands being parsed belong to a {@code call} (parentheses enclose parameter lists). */
    boolean callOperands;

    ParseSupport(String fileName, int eofLine) {
        this.fileName = fileName;
        this.eofLine = eofLine;
    }

    List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    SourcePos pos(Token t) {
        return new SourcePos(t.beginLine, t.beginColumn);
    }

    void error(SourcePos pos, String message) {
        diagnostics.add(Diagnostic.error(fileName, pos.line(), message));
    }

    void fatal(int line, String message) {
        diagnostics.add(new Diagnostic(Severity.FATAL, fileName, line, message));
    }

    // ---- nesting

    void enter(Token t) {
        if (++depth > MAX_NESTING) {
            fatal(t.beginLine, "Parsing error near '" + shown(t) + "': nesting deeper than " + MAX_NESTING + " levels");
            throw new AbortParse();
        }
    }

    void leave() {
        depth--;
    }

    /** Binary operators in the expression being parsed: chains build deep trees without recursion in the parser. */
    private int operators;

    void newExpression() {
        operators = 0;
        addressDepth = -1;
    }

    /** Nesting depth of the address being parsed ({@code [ ... ]}), or -1 outside one. */
    private int addressDepth = -1;

    void enterAddress() {
        addressDepth = depth;
    }

    void leaveAddress() {
        addressDepth = -1;
    }

    /**
     * ptxas's address grammar has {@code [base+offset]} only: {@code [%rd1-4]} or {@code [sym-4]} is a syntax error
     * at the minus ({@code [sym+-4]} and a parenthesized constant difference are accepted).
     */
    void checkAddressMinus(Token minus, Expr left) {
        if (addressDepth == depth && mentionsSymbol(left)) {
            syntaxErrorAt(minus);
        }
    }

    private static boolean mentionsSymbol(Expr e) {
        return e instanceof Expr.SymbolRef
                || e instanceof Expr.Binary b && (mentionsSymbol(b.left()) || mentionsSymbol(b.right()))
                || e instanceof Expr.Unary u && mentionsSymbol(u.operand());
    }

    Expr binary(Expr.BinaryOp op, Expr left, Expr right) {
        if (++operators > MAX_OPERATORS) {
            fatal(left.pos().line(), "Parsing error: expression with more than " + MAX_OPERATORS + " operators");
            throw new AbortParse();
        }
        return new Expr.Binary(left.pos(), op, left, right);
    }

    // ---- syntax errors and recovery

    void syntaxError(ParseException e) {
        Token bad = e.currentToken != null && e.currentToken.next != null ? e.currentToken.next : null;
        if (bad == null) {
            syntaxErrorAt(null);
        } else {
            syntaxErrorAt(bad);
        }
    }

    /**
     * ptxas's wording: {@code Parsing error near '%r2': syntax error}. A syntax error is fatal: ptxas reports the first
     * one and stops (a binary file given as PTX gives one line, not one per line of the file).
     */
    void syntaxErrorAt(Token bad) {
        int line = bad == null || bad.kind == PtxGrammarConstants.EOF ? eofLine : bad.beginLine;
        if (line == lastSyntaxErrorLine) {
            return;
        }
        lastSyntaxErrorLine = line;
        if (bad != null && bad.kind != PtxGrammarConstants.EOF && preprocessorDirective(bad, line)) {
            return;
        }
        String near = bad == null || bad.kind == PtxGrammarConstants.EOF ? "" : shown(bad);
        fatal(line, "Parsing error near '" + near + "': syntax error");
        throw new AbortParse();
    }

    /**
     * ptxas 13's macro preprocessor runs before its scanner but is closed to users: every {@code .IF} conditional is
     * "ill formed" (fatal), and a {@code .MACRO} definition is an unimplemented feature (an error; scanning goes on).
     * jptxas reports them the same way rather than as plain syntax errors.
     */
    private boolean preprocessorDirective(Token bad, int line) {
        if (".IF".equals(bad.image)) {
            fatal(line, "Ill formed conditional");
            throw new AbortParse();
        }
        if (".MACRO".equals(bad.image)) {
            diagnostics.add(Diagnostic.error(fileName, line, "Unimplemented feature: macro definitions"));
            return true;
        }
        return false;
    }

    private static String shown(Token t) {
        String image = t.image == null ? "" : t.image;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < image.length() && i < MAX_TOKEN_TEXT_IN_MESSAGE; i++) {
            char c = image.charAt(i);
            b.append(c < 0x20 || c >= 0x7f ? String.format("\\x%02x", (int) c & 0xff) : c);
        }
        if (image.length() > MAX_TOKEN_TEXT_IN_MESSAGE) {
            b.append("...");
        }
        return b.toString();
    }

    /**
     * Skips to a point where parsing can resume: inside a body, after the next {@code ;} or before the {@code }}
     * closing the body; at module level, after the next {@code ;} or closing brace, or before the next module-level
     * directive. Always consumes at least one token unless at the end of the input or at a body's closing brace.
     */
    void recover(PtxGrammar p, boolean inBody) {
        int nesting = 0;
        boolean consumed = false;
        while (true) {
            Token t = p.getToken(1);
            switch (t.kind) {
                case PtxGrammarConstants.EOF:
                    return;
                case PtxGrammarConstants.LBRACE:
                    nesting++;
                    break;
                case PtxGrammarConstants.RBRACE:
                    if (nesting == 0) {
                        if (inBody) {
                            return;
                        }
                        p.getNextToken();
                        return;
                    }
                    nesting--;
                    if (nesting == 0 && !inBody) {
                        p.getNextToken();
                        return;
                    }
                    break;
                case PtxGrammarConstants.SEMI:
                    if (nesting == 0) {
                        p.getNextToken();
                        return;
                    }
                    break;
                default:
                    if (!inBody && nesting == 0 && consumed && startsModuleItem(t.kind)) {
                        return;
                    }
            }
            p.getNextToken();
            consumed = true;
        }
    }

    int depth() {
        return depth;
    }

    /** After an error abandoned some productions, nesting is counted again from where the statement began. */
    void resetDepth(int d) {
        depth = d;
    }

    private static boolean startsModuleItem(int kind) {
        return kind == PtxGrammarConstants.VISIBLE || kind == PtxGrammarConstants.EXTERN
                || kind == PtxGrammarConstants.WEAK || kind == PtxGrammarConstants.ENTRY
                || kind == PtxGrammarConstants.FUNC || kind == PtxGrammarConstants.VERSION
                || kind == PtxGrammarConstants.TARGET || kind == PtxGrammarConstants.ADDRESS_SIZE
                || kind == PtxGrammarConstants.FILE || kind == PtxGrammarConstants.SECTION
                || kind == PtxGrammarConstants.COMMON || kind == PtxGrammarConstants.GLOBAL
                || kind == PtxGrammarConstants.CONST;
    }

    // ---- directives

    VersionDirective version(Token directive, Token number) throws ParseException {
        String text = number.image;
        int dot = text.indexOf('.');
        if (dot < 0 || text.indexOf('e') >= 0 || text.indexOf('E') >= 0 || dot == 0) {
            syntaxErrorAt(number);
            return new VersionDirective(pos(directive), 0, 0);
        }
        int major;
        int minor;
        try {
            major = Integer.parseInt(text.substring(0, dot));
            minor = Integer.parseInt(text.substring(dot + 1));
        } catch (NumberFormatException e) {
            syntaxErrorAt(number);
            return new VersionDirective(pos(directive), 0, 0);
        }
        if (!PtxVersions.exists(major, minor) || text.length() - dot > 2) {
            // Newer versions and versions that never existed (3.9, 6.6, ...) alike: ptxas stops here.
            fatal(directive.beginLine, "Unsupported .version " + text + "; current version is '"
                    + PtxVersions.CURRENT + "'");
            throw new AbortParse();
        }
        return new VersionDirective(pos(directive), major, minor);
    }

    TuningDirective tuning(Token t, List<Long> values) {
        TuningDirective.Kind kind = TuningDirective.Kind.fromDirective(t.image)
                .orElseThrow(() -> new IllegalStateException("lexer/grammar disagree on " + t.image));
        return new TuningDirective(pos(t), kind, values);
    }

    void badLocAttribute(Token k) {
        syntaxErrorAt(k);
    }

    /** The text between the quotes of a string literal, escapes kept as written. */
    String unquote(Token t) {
        return t.image.substring(1, t.image.length() - 1);
    }

    // ---- instructions and operands

    Instruction instruction(Token first, Guard guard, String opcode, List<String> modifiers, List<Operand> operands) {
        return new Instruction(pos(first), guard, opcode, modifiers, operands);
    }

    Operand parenOperand(Token open, List<Operand> elements) {
        return new Operand.ParenList(pos(open), elements);
    }

    /** {@code %r|%p} parses as a bitwise or; as an operand it is a pair of destinations. */
    Operand operandExpr(Expr e) {
        if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.OR && b.left() instanceof Expr.SymbolRef
                && b.right() instanceof Expr.SymbolRef) {
            return new Operand.Pair(b.pos(), b.left(), b.right());
        }
        return e;
    }

    // ---- literals

    /**
     * Vector components, special-register suffixes and video selectors after the name {@code name}: {@code %tid.x},
     * {@code %v.w}, {@code %c.r}, {@code %r1.b0}, {@code %r2.h10} (the checker says where a selector may stand). A
     * selector must touch its name: {@code .b32} after a label in a data directive list starts the next directive.
     */
    boolean isComponent(Token name, Token t) {
        if (t.kind != PtxGrammarConstants.DOT_IDENT) {
            return false;
        }
        if (t.image.length() == 2 && "xyzwrgba".indexOf(t.image.charAt(1)) >= 0) {
            return true;
        }
        return VideoSelectors.isSelector(t.image.substring(1)) && name != null && name.endLine == t.beginLine
                && name.endColumn + 1 == t.beginColumn;
    }

    int radixOf(Token t) {
        return switch (t.kind) {
            case PtxGrammarConstants.HEX_INT -> 16;
            case PtxGrammarConstants.OCT_INT -> 8;
            case PtxGrammarConstants.BIN_INT -> 2;
            default -> 10;
        };
    }

    Expr intLit(Token t, int radix) {
        String text = t.image;
        boolean unsigned = text.endsWith("U");
        if (unsigned) {
            text = text.substring(0, text.length() - 1);
        }
        String digits = switch (radix) {
            case 16, 2 -> text.substring(2);
            case 8 -> text.substring(1);
            default -> text;
        };
        long value = 0;
        try {
            value = Long.parseUnsignedLong(digits, radix);
        } catch (NumberFormatException e) {
            error(pos(t), "Integer constant '" + shownImage(t) + "' is out of range");
        }
        Expr.Radix r = switch (radix) {
            case 16 -> Expr.Radix.HEX;
            case 8 -> Expr.Radix.OCTAL;
            case 2 -> Expr.Radix.BINARY;
            default -> Expr.Radix.DECIMAL;
        };
        return new Expr.IntLit(pos(t), value, r, unsigned);
    }

    private static String shownImage(Token t) {
        return shown(t);
    }

    Expr floatLit(Token t, Expr.FloatForm form) {
        String text = t.image;
        long bits = switch (form) {
            case HEX_F32, HEX_F64 -> Long.parseUnsignedLong(text.substring(2), 16);
            case DECIMAL -> Double.doubleToRawLongBits(Double.parseDouble(text));
        };
        return new Expr.FloatLit(pos(t), form, bits);
    }

    /** Evaluates a constant integer expression; reports an error and gives 0 when it is not one. */
    long evaluate(Expr e) {
        try {
            return ConstantEvaluator.evaluate(e);
        } catch (ConstantEvaluator.NotConstantException ex) {
            error(ex.pos(), ex.getMessage());
            return 0;
        }
    }
}
