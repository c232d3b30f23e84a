package io.github.sparkufs.readme;

import io.github.sparkufs.ml.NdfsSelector;
import io.github.sparkufs.ml.UnsupervisedSelectorModel;
import java.io.IOException;
import java.util.Arrays;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** Keeps the 5 features of a LIBSVM file that best carry its 3 clusters; saves the model. */
public class QuickStart {
  public static void main(String[] args) throws IOException {
    SparkSession spark = SparkSession.builder().appName("spark-ufs quick start").getOrCreate();
    Dataset<Row> data = spark.read().format("libsvm").load(args[0]);  // label, features

    NdfsSelector selector = new NdfsSelector()
        .setNumClusters(3)       // c: required by every method but maxvar, lapscore, spec
        .setNumTopFeatures(5);   // keep the 5 best features (or setSelectionMode("percentile"))
    UnsupervisedSelectorModel model = selector.fit(data);

    System.out.println("kept " + Arrays.toString(model.selectedFeatures()));   // ascending
    System.out.println("ranking " + Arrays.toString(model.ranking()));       // best first
    System.out.println("scores " + Arrays.toString(model.scores()));
    model.transform(data).select("selectedFeatures").show(3, false);
    model.write().overwrite().save(args[1]);   // UnsupervisedSelectorModel.load(args[1])
  }
}
