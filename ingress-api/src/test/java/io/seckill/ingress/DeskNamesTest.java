package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.ingress.identity.AdminGuard;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** One rule for the classes that answer routes: each is a desk, named for what it serves. */
class DeskNamesTest {

    @Test
    void everyClassThatAnswersRoutesIsADesk() {
        assertThat(Arrays.stream(IngressRoutes.Desks.class.getRecordComponents()).map(RecordComponent::getType)
                // The guard checks the caller before every admin route; it answers none of them itself.
                .filter(type -> type != AdminGuard.class).map(Class::getSimpleName))
                .isNotEmpty().allMatch(name -> name.endsWith("Desk"), "ends with Desk");
    }
}
