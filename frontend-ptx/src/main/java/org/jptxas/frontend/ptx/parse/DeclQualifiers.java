package org.jptxas.frontend.ptx.parse;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Linkage;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.SourcePos;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.TuningDirective;
import org.jptxas.frontend.ptx.ast.VariableDecl;

/**
 * The qualifiers written before a declared name ({@code .visible .global .align 8 .v2 .f32}), collected in any
 * order and turned into a variable, parameter or function declaration. Conflicts are reported, not thrown.
 */
final class DeclQualifiers {
    private final ParseSupport s;
    private SourcePos first;
    private Linkage linkage = Linkage.NONE;
    private StateSpace space;
    private long align;
    private int vectorLength;
    private PtxType type;
    private boolean pointer;
    private StateSpace pointerSpace;
    private long pointerAlign;
    private final List<FunctionDecl.Attribute> attributes = new ArrayList<>();

    DeclQualifiers(ParseSupport s) {
        this.s = s;
    }

    private void seen(Token t) {
        if (first == null) {
            first = s.pos(t);
        }
    }

    List<FunctionDecl.Attribute> attributes() {
        return attributes;
    }

    void linkage(Token t, Linkage l) {
        seen(t);
        if (linkage != Linkage.NONE && linkage != l) {
            s.error(s.pos(t), "Conflicting linkage directives " + linkage.directive() + " and " + l.directive());
        }
        linkage = l;
    }

    void space(Token t) {
        seen(t);
        StateSpace sp = StateSpace.fromDirective(t.image).orElseThrow();
        if (pointer) {
            pointerSpace = sp;
            return;
        }
        if (space != null && space != sp) {
            s.syntaxErrorAt(t);
        }
        space = sp;
    }

    void align(Token t, long n) {
        seen(t);
        if (n <= 0 || (n & (n - 1)) != 0) {
            s.error(s.pos(t), "Alignment must be a power of two");
        }
        if (pointer) {
            pointerAlign = n;
        } else {
            align = n;
        }
    }

    void pointer(Token t) {
        seen(t);
        pointer = true;
    }

    void typeOrVector(Token t) {
        seen(t);
        String word = t.image.substring(1);
        switch (word) {
            case "v2" -> vectorLength = 2;
            case "v4" -> vectorLength = 4;
            case "v8" -> vectorLength = 8;
            default -> {
                PtxType ty = PtxType.fromName(word).orElse(null);
                if (ty == null || type != null) {
                    s.syntaxErrorAt(t);
                } else {
                    type = ty;
                }
            }
        }
    }

    private SourcePos posOr(SourcePos fallback) {
        return first != null ? first : fallback;
    }

    VariableDecl variable(List<Declarator> declarators, boolean inBody) {
        Declarator d0 = declarators.get(0);
        SourcePos pos = posOr(d0.pos());
        if (space == null || type == null) {
            s.fatal(d0.pos().line(), "Parsing error near '" + d0.name() + "': syntax error");
        }
        if (!attributes.isEmpty() && space != null && space != StateSpace.GLOBAL) {
            s.error(pos, ".attribute is only allowed on .global variables");
        }
        return new VariableDecl(pos, linkage, space == null ? StateSpace.REG : space, attributeNames(), align,
                vectorLength, type == null ? PtxType.B32 : type, pointerInfo(), declarators);
    }

    VariableDecl parameter(Declarator d) {
        SourcePos pos = posOr(d.pos());
        if (space != StateSpace.PARAM && space != StateSpace.REG) {
            s.fatal(d.pos().line(), "Parsing error near '" + d.name() + "': syntax error");
        }
        if (type == null) {
            s.fatal(d.pos().line(), "Parsing error near '" + d.name() + "': syntax error");
        }
        return new VariableDecl(pos, linkage, space == null ? StateSpace.PARAM : space, attributeNames(), align,
                vectorLength, type == null ? PtxType.B32 : type, pointerInfo(), List.of(d));
    }

    private VariableDecl.PointerInfo pointerInfo() {
        return pointer ? new VariableDecl.PointerInfo(pointerSpace, pointerAlign) : null;
    }

    private List<String> attributeNames() {
        List<String> names = new ArrayList<>();
        for (FunctionDecl.Attribute a : attributes) {
            names.add(a.name());
        }
        return names;
    }

    FunctionDecl function(Token kind, List<VariableDecl> returns, Token name, List<VariableDecl> params,
            List<TuningDirective> tuning, Block body) {
        SourcePos pos = posOr(s.pos(kind));
        if (space != null || type != null || align != 0 || vectorLength != 0 || pointer) {
            s.syntaxErrorAt(kind);
        }
        FunctionDecl.Kind k = kind.image.equals(".entry") ? FunctionDecl.Kind.ENTRY : FunctionDecl.Kind.FUNC;
        return new FunctionDecl(pos, linkage, k, attributes, returns, name.image, params, tuning, body);
    }
}
