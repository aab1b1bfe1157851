// The generated project's build passed; this checks that its tests ran, none skipped in CI, so
// that they met the real API server (without binaries they skip, unless CI=true), that it
// packaged this build's artifacts, and that the defaults of the properties made it what the
// README says.
def projectDir = context.projectDir
def reports = new File(projectDir, 'target/surefire-reports').listFiles().findAll { it.name ==~ /TEST-.*\.xml/ }
assert reports : "no test reports in ${projectDir}/target/surefire-reports"
def count = { String report, String attribute -> (report =~ /<testsuite [^>]*\b${attribute}="(\d+)"/)[0][1].toInteger() }
int tests = reports.sum { count(it.text, 'tests') }
int skipped = reports.sum { count(it.text, 'skipped') }
assert tests >= 2 : "the generated project ran ${tests} tests"
// as every Kubernetes test of this repository: skipped without the binaries, except in CI
if (skipped > 0 && System.getenv('CI') != 'true') {
    println "[WARNING] the generated project skipped ${skipped} of ${tests} tests: no test API server, see docs/testing.md"
} else {
    assert skipped == 0 : "the generated project skipped ${skipped} of ${tests} tests: no test API server? see docs/testing.md"
}
// each of our jars in the application is the one invoker:install copied from this build, not an
// older one from the outer build's local repository, the tail behind it
def localRepository = new File(basedir, '../../../local-repo').canonicalFile
def application = new java.util.zip.ZipFile(new File(projectDir, 'target/backup-operator-0.1.0-SNAPSHOT.jar'))
def ours = application.entries().findAll { it.name ==~ /BOOT-INF\/lib\/kube-reconciler-.*\.jar/ }
assert ours : "the application packaged no kube-reconciler jar"
ours.each { entry ->
    def (name, artifactId, version) = (entry.name =~ /BOOT-INF\/lib\/((kube-reconciler-[a-z-]+)-(\d.*)\.jar)/)[0][1..3]
    def installed = new File(localRepository, "dev/kubereconciler/${artifactId}/${version}/${name}")
    assert installed.isFile() : "${name} is not in ${localRepository}: add its module as a dependency of the archetype"
    assert application.getInputStream(entry).bytes == installed.bytes : "${name} in the application is not the one this build installed"
}
application.close()
assert new File(projectDir, 'target/classes/META-INF/kubernetes/crds/backups.example.com.yaml').isFile()
assert new File(projectDir, '.gitignore').isFile()
assert !new File(projectDir, 'gitignore').exists()
true
