package io.dpone.backfill.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.dpone.backfill.cli.BackfillCli;
import io.dpone.backfill.cli.SqlServerTargetOptions;
import io.dpone.backfill.cli.demo.DemoData;
import io.dpone.backfill.cli.demo.DemoVerification;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nothing outside a target's module names that target (src-docs/adding-a-target.md): neither its classes nor its
 * {@code TargetType} constant. Checked over the production classes of every module, which only this module has on
 * its classpath together; the module graph alone cannot say it, because the CLI and the operator reach the targets
 * through the composition root. The registry {@code Connectors} is the one place that names them all.
 *
 * <p>{@link #STILL_NAMING_A_TARGET} lists the classes that still do (issue 25 moves what they ask of a target behind
 * the adapter SPI). It only shrinks: a class that names a target and is not listed fails, and so does a listed class
 * that no longer names one, so the list is always the truth.
 */
class TargetSeamTest {
    private static final String ENUM = "io.dpone.backfill.core.campaign.TargetType";
    private static final Map<String, String> TARGET_PACKAGES = Map.of(
            "io.dpone.backfill.targets.mssql", "MSSQL",
            "io.dpone.backfill.targets.postgres", "POSTGRES");
    private static final String REGISTRY = "io.dpone.backfill.wiring.Connectors";

    private static final Set<String> STILL_NAMING_A_TARGET = Set.of(
            "io.dpone.backfill.cli.demo.DemoData",
            "io.dpone.backfill.cli.demo.DemoVerification",
            "io.dpone.backfill.cli.SqlServerTargetOptions",
            "io.dpone.backfill.cli.bench.PostgresBenchTarget",
            "io.dpone.backfill.cli.bench.SqlServerBenchTarget",
            "io.dpone.backfill.cli.certify.Certification",
            "io.dpone.backfill.cli.certify.CertifyReport",
            "io.dpone.backfill.cli.certify.NotProven",
            "io.dpone.backfill.cli.certify.TargetDialect",
            "io.dpone.backfill.cli.scratch.ScratchSchema");

    private static JavaClasses classes;

    @BeforeAll
    static void importEveryModulesProductionClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.dpone.backfill");
    }

    @Test
    void everyModuleIsOnTheClassPath() {
        // Without the CLI and the operator this test would pass by seeing nothing.
        for (String type : Set.of("io.dpone.backfill.cli.BackfillCli", "io.dpone.backfill.operator.reconciler.BackfillCampaignReconciler",
                REGISTRY, "io.dpone.backfill.targets.mssql.MssqlTargetAdapter", "io.dpone.backfill.targets.postgres.PostgresTargetAdapter")) {
            assertThat(classes.contain(type)).as(type + " imported").isTrue();
        }
    }

    @Test
    void onlyATargetsOwnModuleAndTheRegistryNameThatTarget() {
        Map<String, Set<String>> naming = classesNamingATarget();
        Set<String> unlisted = new TreeSet<>(naming.keySet());
        unlisted.removeAll(STILL_NAMING_A_TARGET);
        assertThat(unlisted)
                .as("classes outside a target module that name a target (what they need from it belongs behind the"
                        + " adapter SPI, src-docs/adding-a-target.md): %s", naming)
                .isEmpty();
    }

    @Test
    void theListOfClassesStillNamingATargetOnlyShrinks() {
        Set<String> fixed = new TreeSet<>(STILL_NAMING_A_TARGET);
        fixed.removeAll(classesNamingATarget().keySet());
        assertThat(fixed).as("listed in STILL_NAMING_A_TARGET but no longer naming a target: remove them from the list")
                .isEmpty();
    }

    /** Top-level class name to what it names: a target package's class, or a TargetType constant. */
    private static Map<String, Set<String>> classesNamingATarget() {
        Map<String, Set<String>> naming = new TreeMap<>();
        for (JavaClass type : classes) {
            String owner = topLevel(type.getName());
            if (owner.equals(REGISTRY) || owner.equals(ENUM) || ownTarget(type.getPackageName()) != null) {
                continue;
            }
            type.getDirectDependenciesFromSelf().forEach(dependency -> {
                String target = ownTarget(dependency.getTargetClass().getPackageName());
                if (target != null) {
                    naming.computeIfAbsent(owner, k -> new TreeSet<>()).add(dependency.getTargetClass().getName());
                }
            });
            type.getFieldAccessesFromSelf().forEach(access -> {
                if (access.getTargetOwner().getName().equals(ENUM) && TARGET_PACKAGES.containsValue(access.getName())) {
                    naming.computeIfAbsent(owner, k -> new TreeSet<>()).add("TargetType." + access.getName());
                }
            });
        }
        return naming;
    }

    private static String ownTarget(String packageName) {
        for (Map.Entry<String, String> target : TARGET_PACKAGES.entrySet()) {
            if (packageName.equals(target.getKey()) || packageName.startsWith(target.getKey() + ".")) {
                return target.getValue();
            }
        }
        return null;
    }

    private static String topLevel(String className) {
        int nested = className.indexOf('$');
        return nested < 0 ? className : className.substring(0, nested);
    }
}
