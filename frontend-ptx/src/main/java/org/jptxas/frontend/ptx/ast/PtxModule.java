package org.jptxas.frontend.ptx.ast;

import java.util.List;
import java.util.Optional;

/**
 * One PTX module as written: its module-level items in source order (the {@code .version}, {@code .target} and
 * {@code .address_size} header included).
 */
public record PtxModule(List<ModuleItem> items) {
    public PtxModule {
        items = List.copyOf(items);
    }

    public Optional<VersionDirective> version() {
        return first(VersionDirective.class);
    }

    public Optional<TargetDirective> target() {
        return first(TargetDirective.class);
    }

    public Optional<AddressSizeDirective> addressSize() {
        return first(AddressSizeDirective.class);
    }

    /** The functions and kernels, declarations included, in source order. */
    public List<FunctionDecl> functions() {
        return items.stream().filter(FunctionDecl.class::isInstance).map(FunctionDecl.class::cast).toList();
    }

    /** The module-scope variable declarations in source order. */
    public List<VariableDecl> variables() {
        return items.stream().filter(VariableDecl.class::isInstance).map(VariableDecl.class::cast).toList();
    }

    /**
     * Where ptxas reports an error found on the module directive {@code item} (a {@code .file} index declared twice):
     * at the next item, which its parser has already read by then; at the line after the directive when it is the
     * last (its end of file, unless blank lines follow).
     */
    public SourcePos reportedPos(ModuleItem item) {
        for (int i = 0; i < items.size() - 1; i++) {
            if (items.get(i) == item) {
                return items.get(i + 1).pos();
            }
        }
        return new SourcePos(item.pos().line() + 1, 1);
    }

    private <T extends ModuleItem> Optional<T> first(Class<T> kind) {
        return items.stream().filter(kind::isInstance).map(kind::cast).findFirst();
    }
}
