package io.dpone.backfill.core.campaign.rule;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The bounds of a text's length, a list's items or a map's entries. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface Size {
    long min() default 0;

    long max() default Long.MAX_VALUE;
}
