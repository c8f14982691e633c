/**
 * The campaign model's field rules, declared on the fields they bound: the engine's own words for them, so the
 * model depends on no schema generator. The manifest reference prints them, and the committed CRD carries them as
 * OpenAPI bounds ({@code crds}' {@code FieldRules}, ADR 0053); the validation in {@code core.validation} enforces the
 * same bounds for files the CLI reads.
 */
package io.dpone.backfill.core.campaign.rule;
