package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The manifest reference documents every spec field: adding a field without documenting it fails here. */
class ManifestReferenceTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static void collect(JavaType type, String prefix, List<String> paths) {
        BeanDescription description = MAPPER.getSerializationConfig().introspect(type);
        for (BeanPropertyDefinition property : description.findProperties()) {
            String path = prefix + "." + property.getName();
            JavaType child = property.getPrimaryType();
            if (child.getRawClass().getPackageName().equals(BackfillCampaignSpec.class.getPackageName()) && !child.isEnumType()) {
                collect(child, path, paths);
            } else {
                paths.add(path);
            }
        }
    }

    @Test
    void everySpecFieldAppearsInTheManifestReference() throws IOException {
        String reference = Files.readString(Path.of("..", "src-docs", "manifest-reference.md"));
        List<String> paths = new ArrayList<>();
        collect(MAPPER.constructType(BackfillCampaignSpec.class), "spec", paths);
        assertThat(paths).hasSizeGreaterThan(25);
        for (String path : paths) {
            // requests.cpu and limits.cpu are documented together as `...requests.cpu`, `.memory`.
            String documented = path.replaceFirst("\\.memory$", ".cpu");
            assertThat(reference).as("src-docs/manifest-reference.md documents " + path).contains("`" + documented);
        }
    }
}
