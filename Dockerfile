# One image for every seckill process: the build runs in the first stage (no Maven, no build output
# in the running containers or in the checkout), the second holds the runnable jars and bin/seckill.
#   docker build -t seckill .        then: docker run seckill db-sink   (any bin/seckill command)
FROM maven:3.9-eclipse-temurin-25 AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 mvn -q -B -ntp install -DskipTests

FROM eclipse-temurin:25-jre
RUN useradd --system --uid 10001 seckill \
 && mkdir -p /var/lib/seckill/streams && chown -R seckill /var/lib/seckill
WORKDIR /opt/seckill
COPY --from=build /src/bin bin
COPY --from=build /src/ingress-api/target/ingress-api.jar ingress-api/target/
COPY --from=build /src/ingress-api/target/lib ingress-api/target/lib
COPY --from=build /src/ingress-api/target/bom.json ingress-api/target/
COPY --from=build /src/stream-processor/target/stream-processor.jar stream-processor/target/
COPY --from=build /src/stream-processor/target/lib stream-processor/target/lib
COPY --from=build /src/stream-processor/target/bom.json stream-processor/target/
COPY --from=build /src/db-sink/target/db-sink.jar db-sink/target/
COPY --from=build /src/db-sink/target/lib db-sink/target/lib
COPY --from=build /src/db-sink/target/bom.json db-sink/target/
COPY --from=build /src/reconciler/target/reconciler.jar reconciler/target/
COPY --from=build /src/reconciler/target/lib reconciler/target/lib
COPY --from=build /src/reconciler/target/bom.json reconciler/target/
USER seckill
ENTRYPOINT ["bin/seckill"]
