package io.dpone.backfill.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The dependency rule of src-docs/architecture.md section 2: the domain knows no adapter, no Kubernetes, no
 * framework.
 */
class DomainArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importProductionClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.dpone.backfill");
    }

    @Test
    void domainImportsNoAdapterPackage() {
        ArchRule rule = noClasses().that().resideInAPackage("io.dpone.backfill.core..")
                .should().dependOnClassesThat().resideInAnyPackage("io.dpone.backfill.postgres..", "io.dpone.backfill.source..",
                        "io.dpone.backfill.targets..", "io.dpone.backfill.connect..", "io.dpone.backfill.wiring..")
                .because("adapters and the composition roots that pick them depend on the domain, never the reverse");
        rule.check(classes);
    }

    @Test
    void domainImportsNoKubernetesQuarkusOrPicocliType() {
        ArchRule rule = noClasses().that().resideInAPackage("io.dpone.backfill.core..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.fabric8..", "io.javaoperatorsdk..", "io.quarkus..",
                        "io.quarkiverse..", "picocli..", "jakarta.enterprise..", "io.smallrye..")
                .because("Kubernetes, operator and CLI types stay in the operator and the CLI; the model's field rules"
                        + " are the engine's own (core.campaign.rule), written into the CRD by crds' FieldRules (ADR 0053)");
        rule.check(classes);
    }

    @Test
    void domainImportsNoVendorDriverPackage() {
        ArchRule rule = noClasses().that().resideInAPackage("io.dpone.backfill.core..")
                .should().dependOnClassesThat().resideInAnyPackage("org.postgresql..", "com.microsoft.sqlserver..")
                .because("only adapters speak a database's driver API; the domain sees JDBC at most through ports");
        rule.check(classes);
    }

    /**
     * Issue 37: cli.run and cli.status imported each other. No two sibling packages may, at any depth (command
     * families, connectors, a connector's doctor, ledger and publish). A package may still use its own subpackages
     * and they its shared classes: the top of a family is where its parts are put together.
     */
    @ParameterizedTest
    @ValueSource(strings = {"io.dpone.backfill.(*)..", "io.dpone.backfill.(*).(*)..", "io.dpone.backfill.(*).(*).(*).."})
    void noTwoSiblingPackagesImportEachOther(String siblings) {
        slices().matching(siblings).should().beFreeOfCycles()
                .because("a package that can be read alone can be moved alone: to another module, or out of the product")
                .check(classes);
    }

    @Test
    void domainPackagesHaveNoCycles() {
        slices().matching("io.dpone.backfill.core.(*)..").should().beFreeOfCycles()
                .because("shapes shared by two domain packages live in a neutral one, so each can be read alone")
                .check(classes);
    }

    @Test
    void aTargetAdapterNeverUsesAnotherTargetsPackage() {
        // io.dpone.backfill.targets.ledger is the SPI's ledger (SqlLedgerStore over each target's statements), not a target.
        slices().matching("io.dpone.backfill.targets.(*)..").should().notDependOnEachOther()
                .ignoreDependency(DescribedPredicate.alwaysTrue(),
                        JavaClass.Predicates.resideInAPackage("io.dpone.backfill.targets.ledger"))
                .because("a target adapter may use the PostgreSQL source half, the adapter SPI and the shared helpers,"
                        + " never another target")
                .check(classes);
    }

    @Test
    void theSourceHalfAndTheSharedHelpersUseNoTarget() {
        noClasses().that().resideInAnyPackage("io.dpone.backfill.source..", "io.dpone.backfill.postgres..")
                .should().dependOnClassesThat().resideInAPackage("io.dpone.backfill.targets..")
                .because("every route reads its source through the source half; targets build on it, not the reverse")
                .check(classes);
    }
}
