package io.github.sparkzarr.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * PySpark cannot run here (no pyspark from Debian, Maven Central or npm, and PyPI is closed),
 * so the Python examples are checked as far as possible without it: they must be valid Python 3,
 * and the notebook valid nbformat 4 whose code cells are valid Python too.
 */
class PythonExamplesTest {
  private static final String PYTHON = "/usr/bin/python3";

  @Test
  void pysparkScriptIsValidPython() throws Exception {
    assertCompiles(Path.of("examples/pyspark_quickstart.py"));
  }

  @Test
  void notebookIsValidNbformat4WithValidCode() throws Exception {
    JsonNode nb = new ObjectMapper().readTree(new File("examples/quickstart.ipynb"));
    assertEquals(4, nb.path("nbformat").asInt());
    assertTrue(nb.path("nbformat_minor").isInt());
    assertEquals("python", nb.path("metadata").path("kernelspec").path("language").asText());
    StringBuilder code = new StringBuilder();
    for (JsonNode cell : nb.path("cells")) {
      String type = cell.path("cell_type").asText();
      assertTrue(List.of("code", "markdown").contains(type), "cell type " + type);
      assertTrue(cell.path("metadata").isObject() && cell.path("source").isArray(), cell.toString());
      if (type.equals("code")) {
        assertTrue(cell.path("outputs").isArray() && cell.has("execution_count"), cell.toString());
        cell.path("source").forEach(line -> code.append(line.asText()));
        code.append("\n\n");
      }
    }
    assertFalse(code.toString().isBlank(), "the notebook has code");
    assertTrue(code.toString().contains("format(\"zarr\")"), code.toString());
    Path script = Files.createTempFile("notebook", ".py");
    try {
      Files.writeString(script, code);
      assertCompiles(script);
    } finally {
      Files.delete(script);
    }
  }

  private static void assertCompiles(Path file) throws Exception {
    // ast.parse, not py_compile: nothing is written next to the example.
    Process p = new ProcessBuilder(PYTHON, "-c",
        "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])", file.toString())
        .redirectErrorStream(true).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python3 timed out");
    String out = new String(p.getInputStream().readAllBytes());
    assertEquals(0, p.exitValue(), file + " is not valid Python: " + out);
  }
}
