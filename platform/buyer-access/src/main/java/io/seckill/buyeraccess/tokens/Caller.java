package io.seckill.buyeraccess.tokens;

/** Whom a verified token names, and whether it carries the admin role. */
public record Caller(String subject, boolean admin) {
}
