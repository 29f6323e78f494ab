// Build: `bash scripts/package-jetbrains` (from the repository: every step that needs no IntelliJ
// SDK — the server bundle and the webview laid out in build/layout, the core installed into the
// local Maven repository), then `gradle buildPlugin` here (Gradle 9, JDK 17+).
// Output: build/distributions/wavehost-<version>.zip, whose lib/ holds the jars and lib/server/,
// the server bundle the plugin starts (PluginLayout in the core).
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

// What scripts/package-jetbrains laid out: the one webview every shell loads, packaged under
// /webview in the plugin jar, and the server bundle, put into the zip's lib/server.
val packaged = layout.projectDirectory.dir("build/layout")
val checkLayout by tasks.registering {
    val launcher = packaged.file("lib/server/launch.py").asFile
    val page = packaged.file("webview/index.html").asFile
    doLast {
        check(launcher.isFile && page.isFile) { "${packaged.asFile} is not laid out: run `bash scripts/package-jetbrains` first" }
    }
}
tasks.processResources {
    dependsOn(checkLayout)
    from(packaged.dir("webview")) { into("webview") }
}
tasks.prepareSandbox {
    dependsOn(checkLayout)
    from(packaged.dir("lib/server")) { into(pluginName.map { "$it/lib/server" }) }
}
