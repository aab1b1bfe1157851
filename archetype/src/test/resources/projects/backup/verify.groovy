// The generated project's build passed; this checks that its tests ran, none skipped, so that
// they met the real API server (without binaries they skip, unless CI=true fails them), and that
// the defaults of the properties made it what the README says.
def projectDir = context.projectDir
def reports = new File(projectDir, 'target/surefire-reports').listFiles().findAll { it.name ==~ /TEST-.*\.xml/ }
assert reports : "no test reports in ${projectDir}/target/surefire-reports"
def count = { String report, String attribute -> (report =~ /<testsuite [^>]*\b${attribute}="(\d+)"/)[0][1].toInteger() }
int tests = reports.sum { count(it.text, 'tests') }
int skipped = reports.sum { count(it.text, 'skipped') }
assert tests >= 2 : "the generated project ran ${tests} tests"
assert skipped == 0 : "the generated project skipped ${skipped} of ${tests} tests: no test API server? see docs/testing.md"
assert new File(projectDir, 'target/classes/META-INF/kubernetes/crds/backups.example.com.yaml').isFile()
assert new File(projectDir, '.gitignore').isFile()
assert !new File(projectDir, 'gitignore').exists()
true
