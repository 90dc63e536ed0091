package org.jptxas.tables.sass;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One JSON file of SASS encoding forms for the 128-bit Volta-family format: either the shared base
 * ({@code volta-base.json}, forms every SM sm_75 ... sm_90 agrees on) or a per-SM overlay ({@code sm90.json}, ...).
 *
 * <p>A <em>form</em> is one instruction class (the 13-bit dispatch key: bits [11:0] plus bit 91) together with one
 * setting of every non-operand bit (its modifiers, which the printed mnemonic names), and the list of operand slots
 * in print order. Each slot is either a field (kind plus bit positions) or a literal that the form's fixed bits
 * imply. The tables are derived by {@code tools/sass-probe} from ptxas output and nvdisasm 12.5.
 *
 * @param format {@code "volta-128"}, or {@link #UNIFORM8_FORMAT} for a Blackwell overlay: the same word, with the
 *     uniform-register fields 8 bits wide (URZ = 255) where sm_75 … sm_90 have 6; such an overlay holds every form
 *     of its target, the base's included with their fields widened, and the base is not read
 * @param scope {@code "base"} or the SM name of an overlay ({@code "sm_90"})
 * @param derivedWith how the file was produced (tool and oracle versions), for provenance
 * @param forms the forms
 * @param descriptorFields an overlay's unprinted descriptor fields by mnemonic ({@code "LDG": "37:32"}): where the
 *                         SM's memory instructions name the uniform pair holding the memory descriptor without
 *                         nvdisasm printing it, so the learned forms fix whatever pair ptxas used in their samples
 *                         and the encoder writes the pair the code loads instead; {@code {}} where there are none
 */
public record SassFormTable(String format, String scope, String derivedWith, Map<String, String> descriptorFields,
        List<SassFormData> forms) {
    /** The Blackwell format: {@code volta-128} with 8-bit uniform-register fields, in one self-contained table. */
    public static final String UNIFORM8_FORMAT = "volta-128-ur8";

    @JsonCreator
    public SassFormTable(@JsonProperty(value = "format", required = true) String format,
                         @JsonProperty(value = "scope", required = true) String scope,
                         @JsonProperty(value = "derivedWith", required = true) String derivedWith,
                         @JsonProperty(value = "descriptorFields", required = true) Map<String, String> descriptorFields,
                         @JsonProperty(value = "forms", required = true) List<SassFormData> forms) {
        if (!"volta-128".equals(format) && !UNIFORM8_FORMAT.equals(format)) {
            throw new IllegalArgumentException("format must be 'volta-128' or '" + UNIFORM8_FORMAT
                    + "', not '" + format + "'");
        }
        this.format = format;
        this.scope = Objects.requireNonNull(scope);
        this.derivedWith = Objects.requireNonNull(derivedWith);
        this.descriptorFields = Map.copyOf(descriptorFields);
        this.forms = List.copyOf(forms);
    }
}
