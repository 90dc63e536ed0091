package org.jptxas.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.tables.TableException;
import org.jptxas.tables.TableLoader;
import org.jptxas.tables.TableSource;

/**
 * Reads a backend's {@code backend.json} from its own jar: {@code id}, {@code description}, {@code defaults} (any
 * target fields) and {@code targets} (each target's own fields, each replacing the default of the same name). Every
 * target ends up with every field of {@link TargetSpec}, and with a {@link CodegenSpec} under {@code codegen} when
 * the backend generates code for it ({@code "codegen": null} in a target withdraws a default one), or with the
 * {@link DecodeTables} under {@code tables} when the backend only reads its SASS; what is missing
 * or unknown is an error naming the file and the target.
 */
public final class BackendDescriptions {
    static final String FILE = "backend.json";

    private BackendDescriptions() {}

    /** A backend's id, one-line description and targets. */
    public record Described(String id, String description, List<TargetDescription> targets) {
        public Described {
            targets = List.copyOf(targets);
        }
    }

    /** Reads {@code root + "backend.json"} through {@code anchor}'s class loader. */
    public static Described read(Class<?> anchor, String root) {
        return read(TableSource.of(anchor, root));
    }

    /** Reads {@code backend.json} of {@code source} (the backend's resource folder seen by its class loader). */
    public static Described read(TableSource source) {
        String path = source.path(FILE);
        JsonNode top;
        try (InputStream in = source.open(FILE)) {
            if (in == null) {
                throw new TableException(path, "", "no such resource on the class path of "
                        + source.loader().getName(), null);
            }
            top = TableLoader.readTree(path, in);
        } catch (IOException e) {
            throw new TableException(path, "", "cannot be read: " + e.getMessage(), e);
        }
        Set<String> fields = new HashSet<>();
        top.fieldNames().forEachRemaining(fields::add);
        fields.removeAll(Set.of("id", "description", "defaults", "targets", "note"));
        if (!fields.isEmpty()) {
            throw new TableException(path, "", "unknown field(s) " + fields, null);
        }
        String id = text(top, "id", path);
        String description = text(top, "description", path);
        JsonNode defaults = top.path("defaults");
        JsonNode targets = top.path("targets");
        if (!defaults.isObject() || !targets.isArray() || targets.isEmpty()) {
            throw new TableException(path, "", "needs a 'defaults' object and a non-empty 'targets' array", null);
        }
        List<TargetDescription> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < targets.size(); i++) {
            JsonNode t = targets.get(i);
            if (!t.isObject()) {
                throw new TableException(path, "targets[" + i + "]", "not an object", null);
            }
            ObjectNode merged = ((ObjectNode) defaults).deepCopy();
            for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                merged.set(e.getKey(), e.getValue());
            }
            JsonNode codegenNode = merged.remove("codegen");
            JsonNode tablesNode = merged.remove("tables");
            TargetSpec spec = TableLoader.convert(path + " targets[" + i + "]", merged, TargetSpec.class);
            CodegenSpec codegen = codegenNode == null || codegenNode.isNull() ? null
                    : TableLoader.convert(path + " targets[" + i + "].codegen", codegenNode, CodegenSpec.class);
            if (!names.add(spec.name())) {
                throw new TableException(path, "targets[" + i + "]", "target " + spec.name() + " listed twice", null);
            }
            DecodeTables decode = tablesNode == null || tablesNode.isNull() ? null
                    : TableLoader.convert(path + " targets[" + i + "].tables", tablesNode, DecodeTables.class);
            out.add(new TargetDescription(id, spec, codegen, decode, source));
        }
        return new Described(id, description, out);
    }

    private static String text(JsonNode top, String field, String path) {
        JsonNode n = top.get(field);
        if (n == null || !n.isTextual()) {
            throw new TableException(path, field, "missing required text field '" + field + "'", null);
        }
        return n.asText();
    }
}
