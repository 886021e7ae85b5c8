package io.seckill.buyeraccess.passes;

/**
 * What a buyer is asked to do to earn a sale pass, as the answer to a challenge request shows it; {@code type} names
 * the kind, and the rest of its fields are the kind's own.
 */
public interface Challenge {

    String type();
}
