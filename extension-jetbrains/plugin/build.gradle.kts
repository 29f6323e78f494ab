// Build: `mvn -f ../pom.xml install -DskipTests` (the core), `npm ci && npm run build` in
// ../../webview, then `gradle buildPlugin` (Gradle 9, JDK 17+). Output: build/distributions/*.zip.
plugins {
    id("org.jetbrains.kotlin.jvm") version "2.2.21"
    id("org.jetbrains.intellij.platform") version "2.20.1"
}

group = "dev.wavehost"
version = providers.gradleProperty("pluginVersion").get()

kotlin { jvmToolchain(17) }

repositories {
    mavenLocal() // the core, installed by Maven
    mavenCentral()
    intellijPlatform { defaultRepositories() }
}

dependencies {
    implementation("dev.wavehost:wavehost-jetbrains-core:0.1.0") {
        // The IDE ships Kotlin and Gson; JCEF (org.cef) comes with its runtime.
        exclude(group = "org.jetbrains.kotlin")
        exclude(group = "com.google.code.gson")
    }
    intellijPlatform {
        intellijIdea(providers.gradleProperty("platformVersion"))
        bundledPlugin("com.intellij.modules.json")
    }
}

intellijPlatform {
    pluginConfiguration {
        ideaVersion { sinceBuild = "252" }
    }
}

// The one webview every shell loads, packaged under /webview in the plugin jar.
tasks.processResources {
    from("../../webview/dist") { into("webview") }
}
