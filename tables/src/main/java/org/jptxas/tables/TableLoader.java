package org.jptxas.tables;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.InjectableValues;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Reads the JSON tables that drive jptxas into typed records, strictly: unknown fields, duplicate keys, missing or
 * null required fields and trailing content are errors whose message names the file and the entry.
 *
 * <p>Tables are read-only data. Callers cache the loaded value in a holder class (the lazy-holder idiom), so each
 * table is parsed once per class loader and shared safely between threads.
 */
public final class TableLoader {
    /** Folder of the bundled tables inside the {@code tables} jar. */
    public static final String RESOURCE_ROOT = "/org/jptxas/tables/";

    /**
     * The injection id of an optional boolean field that is false when absent: strictness makes every creator
     * property required, except one annotated {@code @JacksonInject(value = ABSENT_IS_FALSE, useInput = TRUE)}.
     */
    public static final String ABSENT_IS_FALSE = "jptxas.absentIsFalse";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .injectableValues(new InjectableValues.Std().addValue(ABSENT_IS_FALSE, Boolean.FALSE))
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .build();

    private TableLoader() {}

    /** Loads a bundled table, e.g. {@code load("ori-opcodes.json", OpcodeTableData.class)}. */
    public static <T> T load(String name, Class<T> type) {
        try (InputStream in = TableLoader.class.getResourceAsStream(RESOURCE_ROOT + name)) {
            if (in == null) {
                throw new TableException(name, "", "no such table on the class path (" + RESOURCE_ROOT + name + ")", null);
            }
            return read(name, in, type);
        } catch (IOException e) {
            throw new TableException(name, "", "cannot be read: " + e.getMessage(), e);
        }
    }

    /** Reads a table from any stream; {@code name} is used in messages. */
    public static <T> T read(String name, InputStream in, Class<T> type) {
        try {
            return MAPPER.readValue(in, type);
        } catch (JsonMappingException e) {
            throw new TableException(name, entryPath(e.getPath()), describe(e), e);
        } catch (JsonProcessingException e) {
            throw new TableException(name, "", "not valid JSON: " + e.getOriginalMessage() + at(e), e);
        } catch (IOException e) {
            throw new TableException(name, "", "cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * Converts a JSON tree (a table assembled from parts, such as a backend's defaults merged with one target's
     * entries) into a record, as strictly as {@link #read}; {@code name} is used in messages.
     */
    public static <T> T convert(String name, com.fasterxml.jackson.databind.JsonNode tree, Class<T> type) {
        try {
            return MAPPER.treeToValue(tree, type);
        } catch (JsonMappingException e) {
            throw new TableException(name, entryPath(e.getPath()), describe(e), e);
        } catch (JsonProcessingException e) {
            throw new TableException(name, "", "not valid: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads a JSON tree strictly (duplicate keys and trailing content are errors). */
    public static com.fasterxml.jackson.databind.JsonNode readTree(String name, InputStream in) {
        try {
            return MAPPER.readTree(in);
        } catch (JsonProcessingException e) {
            throw new TableException(name, "", "not valid JSON: " + e.getOriginalMessage() + at(e), e);
        } catch (IOException e) {
            throw new TableException(name, "", "cannot be read: " + e.getMessage(), e);
        }
    }

    private static String describe(JsonMappingException e) {
        if (e instanceof UnrecognizedPropertyException u) {
            return "unknown field '" + u.getPropertyName() + "'" + at(e);
        }
        if (e instanceof InvalidNullException n) {
            return "field '" + n.getPropertyName() + "' must not be null" + at(e);
        }
        if (e instanceof ValueInstantiationException v && v.getCause() != null) {
            return v.getCause().getMessage() + at(e);
        }
        String msg = e.getOriginalMessage();
        if (e instanceof MismatchedInputException && msg != null && msg.startsWith("Missing ") && msg.contains("creator property")) {
            int q = msg.indexOf('\'');
            int r = q < 0 ? -1 : msg.indexOf('\'', q + 1);
            return (r > q ? "missing required field " + msg.substring(q, r + 1) : msg) + at(e);
        }
        if (msg != null && msg.startsWith("Duplicate field")) {
            return "duplicate field " + msg.substring("Duplicate field ".length()) + at(e);
        }
        return msg + at(e);
    }

    private static String at(JsonProcessingException e) {
        return e.getLocation() == null || e.getLocation().getLineNr() < 0
                ? ""
                : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }

    /** Renders Jackson's reference chain as a JSON path such as {@code opcodes[12].group}. */
    private static String entryPath(List<JsonMappingException.Reference> path) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : path) {
            if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            } else if (ref.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            }
        }
        return sb.toString();
    }

}
