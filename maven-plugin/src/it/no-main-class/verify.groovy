def log = new File(basedir, 'build.log').text
assert log.contains('No main class: no class in ')
assert log.contains("is annotated with @SpringBootApplication; name the application class in the plugin's <mainClass>, the start-class property or -Dkube-reconciler.main-class")
true
