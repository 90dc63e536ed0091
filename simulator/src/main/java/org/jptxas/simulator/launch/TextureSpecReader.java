package org.jptxas.simulator.launch;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The {@code "texture"} parameter of a launch spec:
 * <pre>{"type":"texture","in":"tex.bin","format":"f32","channels":1,"dims":[16,8],"read_mode":"element",
 *  "filter":"linear","address":["clamp","wrap"],"normalized_coords":true,"border":[0,0,0,0]}</pre>
 * {@code format}: u8, s8, u16, s16, u32, s32, f16 or f32; {@code channels} 1, 2 or 4 (default 1); {@code dims}: 1 to
 * 3 sizes in texels; {@code read_mode}: {@code element} (default) or {@code normalized_float} (8- and 16-bit
 * integers); {@code filter}: {@code point} (default) or {@code linear} (float results only, as CUDA); {@code address}:
 * wrap, clamp (default), mirror or border per dimension (wrap and mirror with normalized coordinates only, as CUDA);
 * {@code border}: four numbers (floats for float results, integers otherwise; default zeros).
 * <pre>{"type":"surface","in":"s.bin","out":"s.out.bin","format":"s32","channels":1,"dims":[16,8]}</pre>
 * a surface object over an array of those elements, written back to {@code out}.
 */
final class TextureSpecReader {
    private TextureSpecReader() {}

    static ParamSpec surface(JsonNode node, String where, LaunchSpecReader r) throws LaunchSpecException {
        r.checkFields(node, LaunchSpecReader.SURFACE_FIELDS, where);
        Optional<Path> in = node.has("in") ? Optional.of(r.path(node.get("in"), where + ".in")) : Optional.empty();
        Optional<Path> out = node.has("out") ? Optional.of(r.path(node.get("out"), where + ".out")) : Optional.empty();
        return new ParamSpec.Surface(in, out, format(node, where, r), channels(node, where, r),
                dims(node, where, r).stream().map(Long::intValue).toList());
    }

    private static TexelFormat format(JsonNode node, String where, LaunchSpecReader r) throws LaunchSpecException {
        String formatName = r.string(r.required(node, "format", where), where + ".format");
        return TexelFormat.bySpecName(formatName).orElseThrow(() -> r.error(where + ".format",
                "unknown format '" + formatName + "' (expected u8, s8, u16, s16, u32, s32, f16 or f32)"));
    }

    private static int channels(JsonNode node, String where, LaunchSpecReader r) throws LaunchSpecException {
        int channels = node.has("channels") ? (int) r.integer(node.get("channels"), where + ".channels", 1, 4) : 1;
        if (channels == 3) {
            throw r.error(where + ".channels", "a texel has 1, 2 or 4 channels, not 3");
        }
        return channels;
    }

    private static List<Long> dims(JsonNode node, String where, LaunchSpecReader r) throws LaunchSpecException {
        List<Long> dims = r.longs(r.required(node, "dims", where), where + ".dims", 1, 65536);
        if (dims.isEmpty() || dims.size() > 3) {
            throw r.error(where + ".dims", "a texture has 1 to 3 dimensions, not " + dims.size());
        }
        return dims;
    }

    static ParamSpec texture(JsonNode node, String where, LaunchSpecReader r) throws LaunchSpecException {
        r.checkFields(node, LaunchSpecReader.TEXTURE_FIELDS, where);
        Optional<Path> in = node.has("in") ? Optional.of(r.path(node.get("in"), where + ".in")) : Optional.empty();
        TexelFormat format = format(node, where, r);
        int channels = channels(node, where, r);
        List<Long> dims = dims(node, where, r);
        String readMode = node.has("read_mode") ? r.string(node.get("read_mode"), where + ".read_mode") : "element";
        if (!readMode.equals("element") && !readMode.equals("normalized_float")) {
            throw r.error(where + ".read_mode", "expected \"element\" or \"normalized_float\", got \"" + readMode + "\"");
        }
        boolean normalizedRead = readMode.equals("normalized_float");
        if (normalizedRead && !format.normalizable()) {
            throw r.error(where + ".read_mode", "normalized_float reads 8- and 16-bit integer formats, not "
                    + format.specName());
        }
        boolean floatResult = format.floating() || normalizedRead;
        String filter = node.has("filter") ? r.string(node.get("filter"), where + ".filter") : "point";
        if (!filter.equals("point") && !filter.equals("linear")) {
            throw r.error(where + ".filter", "expected \"point\" or \"linear\", got \"" + filter + "\"");
        }
        if (filter.equals("linear") && !floatResult) {
            throw r.error(where + ".filter", "linear filtering needs a float result (a float format or"
                    + " read_mode normalized_float), not " + format.specName() + " elements");
        }
        boolean normalizedCoords = false;
        if (node.has("normalized_coords")) {
            if (!node.get("normalized_coords").isBoolean()) {
                throw r.error(where + ".normalized_coords", "expected true or false");
            }
            normalizedCoords = node.get("normalized_coords").asBoolean();
        }
        List<TextureAddressMode> address = new ArrayList<>(Collections.nCopies(dims.size(), TextureAddressMode.CLAMP));
        if (node.has("address")) {
            JsonNode a = node.get("address");
            if (!a.isArray() || a.size() != dims.size()) {
                throw r.error(where + ".address", "expected an array of " + dims.size() + " address modes");
            }
            for (int d = 0; d < a.size(); d++) {
                String name = r.string(a.get(d), where + ".address[" + d + "]");
                TextureAddressMode m = TextureAddressMode.bySpecName(name).orElseThrow(() -> r.error(where
                        + ".address", "unknown address mode '" + name + "' (expected wrap, clamp, mirror or border)"));
                if (!normalizedCoords && (m == TextureAddressMode.WRAP || m == TextureAddressMode.MIRROR)) {
                    throw r.error(where + ".address", name + " addressing needs normalized_coords (as CUDA)");
                }
                address.set(d, m);
            }
        }
        List<Integer> border = new ArrayList<>(List.of(0, 0, 0, 0));
        if (node.has("border")) {
            JsonNode b = node.get("border");
            if (!b.isArray() || b.size() != 4) {
                throw r.error(where + ".border", "expected an array of 4 numbers");
            }
            for (int k = 0; k < 4; k++) {
                JsonNode v = b.get(k);
                if (floatResult && v.isNumber()) {
                    border.set(k, Float.floatToRawIntBits(v.floatValue()));
                } else {
                    border.set(k, (int) r.integer(v, where + ".border[" + k + "]", Integer.MIN_VALUE, 0xffffffffL));
                }
            }
        }
        return new ParamSpec.Texture(in, format, channels, dims.stream().map(Long::intValue).toList(), normalizedRead,
                filter.equals("linear"), address, normalizedCoords, border);
    }
}
