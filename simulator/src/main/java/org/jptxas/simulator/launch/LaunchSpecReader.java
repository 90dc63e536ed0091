package org.jptxas.simulator.launch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jptxas.simulator.numeric.SmallFloats;

/**
 * Reads a launch spec strictly: unknown fields, duplicate keys, wrong JSON types, values out of a type's range and
 * trailing content are errors naming the file and the field ({@code launch.json: params[2].bytes: ...}).
 *
 * <pre>{"entry":"saxpy","grid":[4,1,1],"block":[256,1,1],"dynamic_shared_bytes":0,"params":[
 *   {"type":"u32","value":1000},{"type":"f32","value":2.0},
 *   {"type":"ptr","bytes":4000,"in":"x.bin"},{"type":"ptr","bytes":4000,"in":"y.bin","out":"y.out.bin"}]}</pre>
 *
 * Besides JSON numbers, scalar values may be strings: {@code "0x..."} gives the raw bit pattern of any type, and
 * float types accept {@code "nan"}, {@code "inf"} and {@code "-inf"}. An optional {@code "cluster":[x,y,z]} gives
 * the thread-block cluster extent (sm_90 and later).
 */
public final class LaunchSpecReader {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .build();

    private static final Set<String> TOP_FIELDS = Set.of("entry", "grid", "block", "cluster", "dynamic_shared_bytes", "params");
    private static final Set<String> SCALAR_FIELDS = Set.of("type", "value");
    private static final Set<String> POINTER_FIELDS = Set.of("type", "bytes", "in", "out");
    private static final Set<String> TENSOR_MAP_FIELDS = Set.of("type", "of", "data_type", "dims", "strides", "box",
            "element_strides", "swizzle");
    static final Set<String> SURFACE_FIELDS = Set.of("type", "in", "out", "format", "channels", "dims");
    static final Set<String> TEXTURE_FIELDS = Set.of("type", "in", "format", "channels", "dims", "read_mode",
            "filter", "address", "normalized_coords", "border");
    /** Largest buffer the simulator allocates for one pointer argument. */
    public static final long MAX_BUFFER_BYTES = 1L << 30;

    private final String name;
    private final Path baseDir;

    private LaunchSpecReader(String name, Path baseDir) {
        this.name = name;
        this.baseDir = baseDir;
    }

    /** Reads the spec at {@code file}; relative {@code in}/{@code out} paths are resolved against its folder. */
    public static LaunchSpec read(Path file) throws LaunchSpecException {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new LaunchSpecException(file + ": cannot be read: " + e.getMessage(), e);
        }
        Path dir = file.toAbsolutePath().getParent();
        return parse(file.toString(), text, dir);
    }

    /** Parses spec text; {@code name} is used in messages, {@code baseDir} resolves relative paths. */
    public static LaunchSpec parse(String name, String text, Path baseDir) throws LaunchSpecException {
        return new LaunchSpecReader(name, baseDir).parse(text);
    }

    private LaunchSpec parse(String text) throws LaunchSpecException {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ")";
            throw error("", "not valid JSON: " + e.getOriginalMessage() + where);
        }
        if (root == null || !root.isObject()) {
            throw error("", "the spec must be a JSON object");
        }
        checkFields(root, TOP_FIELDS, "");
        Optional<String> entry = Optional.empty();
        if (root.has("entry")) {
            entry = Optional.of(string(root.get("entry"), "entry"));
        }
        Dim3 grid = dim3(required(root, "grid", ""), "grid");
        Dim3 block = dim3(required(root, "block", ""), "block");
        if (block.count() > 1024) {
            throw error("block", "a block has at most 1024 threads, not " + block.count());
        }
        Optional<Dim3> cluster = root.has("cluster") ? Optional.of(dim3(root.get("cluster"), "cluster")) : Optional.empty();
        int dyn = 0;
        if (root.has("dynamic_shared_bytes")) {
            long v = integer(root.get("dynamic_shared_bytes"), "dynamic_shared_bytes", 0, 1L << 20);
            dyn = (int) v;
        }
        JsonNode params = required(root, "params", "");
        if (!params.isArray()) {
            throw error("params", "must be an array");
        }
        List<ParamSpec> list = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) {
            list.add(param(params.get(i), "params[" + i + "]"));
        }
        return new LaunchSpec(entry, grid, block, cluster, dyn, list);
    }

    private ParamSpec param(JsonNode node, String where) throws LaunchSpecException {
        if (!node.isObject()) {
            throw error(where, "must be an object with a \"type\"");
        }
        String type = string(required(node, "type", where), where + ".type");
        if (type.equals("ptr")) {
            checkFields(node, POINTER_FIELDS, where);
            long bytes = integer(required(node, "bytes", where), where + ".bytes", 0, MAX_BUFFER_BYTES);
            Optional<Path> in = node.has("in") ? Optional.of(path(node.get("in"), where + ".in")) : Optional.empty();
            Optional<Path> out = node.has("out") ? Optional.of(path(node.get("out"), where + ".out")) : Optional.empty();
            return new ParamSpec.Pointer(bytes, in, out);
        }
        if (type.equals("tensor_map")) {
            return tensorMap(node, where);
        }
        if (type.equals("texture")) {
            return TextureSpecReader.texture(node, where, this);
        }
        if (type.equals("surface")) {
            return TextureSpecReader.surface(node, where, this);
        }
        ScalarType st = ScalarType.bySpecName(type).orElseThrow(() -> error(where + ".type",
                "unknown type '" + type + "' (expected ptr, tensor_map, texture, surface, u8, u16, u32, u64, s8, s16, s32, s64, f16, bf16, f32 or f64)"));
        checkFields(node, SCALAR_FIELDS, where);
        return new ParamSpec.Scalar(st, scalarBits(st, required(node, "value", where), where + ".value"));
    }

    /**
     * {@code {"type":"tensor_map","of":0,"data_type":7,"dims":[40,48],"strides":[160],"box":[16,8]}} (optional
     * {@code "element_strides"}, {@code "swizzle"} 0-3 as CUtensorMapSwizzle): a tensor map of the buffer of pointer
     * parameter {@code of} (an earlier one).
     */
    private ParamSpec tensorMap(JsonNode node, String where) throws LaunchSpecException {
        checkFields(node, TENSOR_MAP_FIELDS, where);
        int of = (int) integer(required(node, "of", where), where + ".of", 0, 1 << 16);
        int type = (int) integer(required(node, "data_type", where), where + ".data_type", 0, 12);
        List<Long> dims = longs(required(node, "dims", where), where + ".dims", 1, 1L << 32);
        int rank = dims.size();
        if (rank < 1 || rank > 5) {
            throw error(where + ".dims", "a tensor map has 1 to 5 dimensions, not " + rank);
        }
        List<Long> strides = longs(required(node, "strides", where), where + ".strides", 16, 1L << 40);
        List<Long> box = longs(required(node, "box", where), where + ".box", 1, 256);
        List<Long> steps = node.has("element_strides")
                ? longs(node.get("element_strides"), where + ".element_strides", 1, 8)
                : java.util.Collections.nCopies(rank, 1L);
        if (strides.size() != rank - 1 || box.size() != rank || steps.size() != rank) {
            throw error(where, "strides need " + (rank - 1) + " values, box and element_strides " + rank);
        }
        int swizzle = node.has("swizzle") ? (int) integer(node.get("swizzle"), where + ".swizzle", 0, 3) : 0;
        return new ParamSpec.TensorMapOf(of, type, dims, strides, box.stream().map(Long::intValue).toList(),
                steps.stream().map(Long::intValue).toList(), swizzle);
    }

    List<Long> longs(JsonNode node, String where, long min, long max) throws LaunchSpecException {
        if (!node.isArray()) {
            throw error(where, "must be an array of integers");
        }
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            out.add(integer(node.get(i), where + "[" + i + "]", min, max));
        }
        return out;
    }

    private long scalarBits(ScalarType type, JsonNode v, String where) throws LaunchSpecException {
        int bits = type.size() * 8;
        if (v.isTextual()) {
            String s = v.asText().trim().toLowerCase(Locale.ROOT);
            if (s.startsWith("0x")) {
                try {
                    BigInteger raw = new BigInteger(s.substring(2), 16);
                    if (raw.bitLength() > bits) {
                        throw error(where, "bit pattern " + v.asText() + " does not fit in " + bits + " bits");
                    }
                    return raw.longValue();
                } catch (NumberFormatException e) {
                    throw error(where, "not a hexadecimal bit pattern: " + v.asText());
                }
            }
            if (type.floating()) {
                double d = switch (s) {
                    case "nan" -> Double.NaN;
                    case "inf", "+inf", "infinity" -> Double.POSITIVE_INFINITY;
                    case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
                    default -> throw error(where, "expected a number, \"nan\", \"inf\", \"-inf\" or \"0x<bits>\", got \"" + v.asText() + "\"");
                };
                return floatBits(type, d);
            }
            throw error(where, "expected an integer or \"0x<bits>\", got \"" + v.asText() + "\"");
        }
        if (!v.isNumber()) {
            throw error(where, "expected a number");
        }
        if (type.floating()) {
            return floatBits(type, v.doubleValue());
        }
        if (!v.isIntegralNumber()) {
            throw error(where, "expected an integer for " + type.specName() + ", got " + v.asText());
        }
        BigInteger b = v.bigIntegerValue();
        BigInteger min = type.signed() ? BigInteger.ONE.shiftLeft(bits - 1).negate() : BigInteger.ZERO;
        BigInteger max = type.signed() ? BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
        if (b.compareTo(min) < 0 || b.compareTo(max) > 0) {
            throw error(where, b + " is out of range for " + type.specName() + " [" + min + ", " + max + "]");
        }
        long raw = b.longValue();
        return bits == 64 ? raw : raw & ((1L << bits) - 1);
    }

    private static long floatBits(ScalarType type, double d) {
        return switch (type) {
            case F64 -> Double.doubleToRawLongBits(d);
            case F32 -> Integer.toUnsignedLong(Float.floatToRawIntBits((float) d));
            case F16 -> SmallFloats.toHalf(d);
            case BF16 -> SmallFloats.toBf16(d);
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    private Dim3 dim3(JsonNode node, String where) throws LaunchSpecException {
        if (!node.isArray() || node.size() < 1 || node.size() > 3) {
            throw error(where, "expected an array [x, y, z] of 1 to 3 positive integers");
        }
        int[] v = {1, 1, 1};
        for (int i = 0; i < node.size(); i++) {
            v[i] = (int) integer(node.get(i), where + "[" + i + "]", 1, Integer.MAX_VALUE);
        }
        return new Dim3(v[0], v[1], v[2]);
    }

    long integer(JsonNode node, String where, long min, long max) throws LaunchSpecException {
        if (!node.isIntegralNumber()) {
            throw error(where, "expected an integer, got " + node);
        }
        BigInteger b = node.bigIntegerValue();
        if (b.compareTo(BigInteger.valueOf(min)) < 0 || b.compareTo(BigInteger.valueOf(max)) > 0) {
            throw error(where, b + " is out of range [" + min + ", " + max + "]");
        }
        return b.longValue();
    }

    String string(JsonNode node, String where) throws LaunchSpecException {
        if (!node.isTextual() || node.asText().isEmpty()) {
            throw error(where, "expected a non-empty string, got " + node);
        }
        return node.asText();
    }

    Path path(JsonNode node, String where) throws LaunchSpecException {
        String s = string(node, where);
        try {
            return baseDir == null ? Path.of(s) : baseDir.resolve(s).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw error(where, "not a valid path: " + s);
        }
    }

    JsonNode required(JsonNode obj, String field, String where) throws LaunchSpecException {
        JsonNode n = obj.get(field);
        if (n == null || n.isNull()) {
            throw error(where, "missing required field '" + field + "'");
        }
        return n;
    }

    void checkFields(JsonNode obj, Set<String> allowed, String where) throws LaunchSpecException {
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw error(where, "unknown field '" + f + "' (allowed: " + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    LaunchSpecException error(String where, String message) {
        return new LaunchSpecException(name + (where.isEmpty() ? "" : ": " + where) + ": " + message);
    }
}
