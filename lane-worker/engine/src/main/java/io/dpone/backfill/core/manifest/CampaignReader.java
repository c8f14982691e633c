package io.dpone.backfill.core.manifest;

import io.dpone.backfill.core.campaign.CampaignDefinition;
import io.dpone.backfill.core.campaign.CampaignDocument;
import io.dpone.backfill.core.campaign.SpecDefaults;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.CampaignValidator;
import io.dpone.backfill.core.validation.FieldError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads a campaign file strictly and validates it: the only way a campaign enters the CLI. */
public final class CampaignReader {
    /** Campaign files are small; anything larger is a mistake (a data file passed by accident). */
    static final long MAX_FILE_BYTES = 1 << 20;

    private CampaignReader() {
    }

    public static CampaignDefinition read(Path file) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new CampaignRejectedException(List.of(new FieldError("", "size",
                        "campaign file is larger than " + MAX_FILE_BYTES + " bytes")));
            }
            byte[] bytes = Files.readAllBytes(file);
            String text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            return parse(text);
        } catch (CharacterCodingException e) {
            throw new CampaignRejectedException(List.of(new FieldError("", "encoding", "campaign file is not valid UTF-8")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read campaign file " + file, e);
        }
    }

    public static CampaignDefinition parse(String yaml) {
        CampaignDocument doc = StrictYaml.read(yaml, CampaignDocument.class);
        List<FieldError> errors = CampaignValidator.validate(doc);
        if (!errors.isEmpty()) {
            throw new CampaignRejectedException(errors);
        }
        return new CampaignDefinition(doc.getMetadata().getName(), doc.getMetadata().getNamespace(),
                SpecDefaults.apply(doc.getSpec()));
    }
}
